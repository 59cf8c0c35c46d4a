// The Next.js App Router route file, exercised as Next calls it: its exported POST and GET with
// real Request objects for /api/tenure/* (no Next server needed to run the handler).
import { fixture } from '@tenure/testkit';
import { describe, expect, it } from 'vitest';

describe('the Next.js route handler (app/api/tenure/[...path]/route.ts)', () => {
  it('applies RevenueCat\'s webhook at /api/tenure/webhook with the key from the environment, and answers /api/tenure/ready', async () => {
    process.env['BILLING_WEBHOOK_AUTH_KEY'] = 'Bearer whk_next';
    delete process.env['DATABASE_URL'];
    const route = await import('../src/next/app/api/tenure/[...path]/route.js');
    expect(route.runtime).toBe('nodejs');
    const body = JSON.stringify(fixture('initial_purchase'));
    const webhook = (authorization: string) =>
      route.POST(new Request('https://app.example/api/tenure/webhook', { method: 'POST', body, headers: { authorization, 'content-type': 'application/json' } }));
    expect((await webhook('Bearer wrong')).status).toBe(401);
    const applied = await webhook('Bearer whk_next');
    expect(applied.status).toBe(200);
    expect(await applied.json()).toEqual({ ok: true, result: 'applied' });
    expect(await (await webhook('Bearer whk_next')).json()).toEqual({ ok: true, result: 'duplicate' });
    const ready = await route.GET(new Request('https://app.example/api/tenure/ready'));
    expect(await ready.json()).toEqual({ status: 'ready', service: 'tenure' });
    expect((await route.GET(new Request('https://app.example/api/tenure/webhook'))).status).toBe(405);
  });
});
