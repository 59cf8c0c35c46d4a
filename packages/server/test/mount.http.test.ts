import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { closeRetentionApp, createRetentionApp } from '../src/index.js';
import { fixture } from './helpers/fixtures.js';

let server: Server;
let retention: express.Express;
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await closeRetentionApp(retention);
});

async function host(parseFirst: boolean | 'raw'): Promise<string> {
  const app = express();
  if (parseFirst === 'raw') app.use(express.raw({ type: '*/*' }));
  else if (parseFirst) app.use(express.json());
  retention = createRetentionApp({ logger: pino({ level: 'silent' }), webhookAuthKey: 'k' });
  app.use('/retention', retention);
  app.get('/mine', (_req, res) => void res.send('host route'));
  server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'k' }, body: JSON.stringify(body) });

describe.each([false, true, 'raw' as const])('createRetentionApp mounted under /retention (host parses the body first: %s)', (parseFirst) => {
  it('serves the webhook and the API under the prefix', async () => {
    const base = await host(parseFirst);
    expect((await post(`${base}/retention/webhook`, fixture('expiration', { app_user_id: 'm1' }))).status).toBe(200);
    const missing = await post(`${base}/retention/webhook`, { event: { type: 'RENEWAL' } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { field: string } }).error.field).toMatch(/^event\./);
    const sub = await fetch(`${base}/retention/api/subscribers/m1`);
    expect(((await sub.json()) as { state: string }).state).toBe('churned');
  });

  it('answers unknown paths under the prefix with its 404 shape and leaves host routes alone', async () => {
    const base = await host(parseFirst);
    const res = await fetch(`${base}/retention/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'No route for GET /retention/nope' } });
    expect(await (await fetch(`${base}/mine`)).text()).toBe('host route');
  });
});
