// tenure mounted in a real Hono app: RevenueCat's webhook at /tenure/webhook, the probes beside it,
// the app's own routes untouched. Requests through Hono's own fetch (what Node, Bun and Deno call).
import { fixedClock } from '@tenure/server';
import { fixture, T0 } from '@tenure/testkit';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHonoApp } from '../src/hono.js';

const KEY = 'Bearer whk_hono';
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('tenure in a Hono app', () => {
  it('applies the webhook under /tenure, answers its probes, and leaves the app\'s own routes alone', async () => {
    const { app, tenure } = createHonoApp({ webhookAuthKey: KEY, clock: fixedClock(T0), logger: pino({ level: 'silent' }), sweepIntervalMs: 3_600_000 });
    close = () => tenure.close();
    const body = JSON.stringify(fixture('initial_purchase'));
    const post = (authorization: string) => app.request('/tenure/webhook', { method: 'POST', body, headers: { authorization, 'content-type': 'application/json' } });

    const applied = await post(KEY);
    expect(applied.status).toBe(200);
    expect(await applied.json()).toEqual({ ok: true, result: 'applied' });
    expect(await (await post(KEY)).json()).toEqual({ ok: true, result: 'duplicate' });
    const refused = await post('Bearer wrong');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await tenure.runtime.store.get('user_1234'))?.state).toBe('active');

    expect(await (await app.request('/tenure/ready')).json()).toEqual({ status: 'ready', service: 'tenure' });
    expect(await (await app.request('/')).text()).toBe('your app');
    expect((await app.request('/tenure/nothing')).status).toBe(404);
  });
});
