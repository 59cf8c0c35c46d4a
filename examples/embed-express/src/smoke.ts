/** `npm run smoke`: starts the host app on a free port, sends a webhook under the prefix, reads it back. */
import type { AddressInfo } from 'node:net';
import { closeRetentionApp } from '@tenure/server';
import { createHostApp } from './hostApp.js';

const { app, retention } = createHostApp({ webhookAuthKey: 'example-secret', apiKey: 'example-api-key' });
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const event = {
  api_version: '1.0',
  event: {
    type: 'EXPIRATION',
    id: 'smoke-1',
    app_user_id: 'user_42',
    event_timestamp_ms: Date.now(),
    product_id: 'pro_monthly',
    expiration_reason: 'UNSUBSCRIBE',
    store: 'APP_STORE',
    environment: 'PRODUCTION',
  },
};
const checks: [string, boolean][] = [];
try {
  const hook = await fetch(`${base}/retention/webhook`, { method: 'POST', headers: { authorization: 'example-secret', 'content-type': 'application/json' }, body: JSON.stringify(event) });
  checks.push([`POST /retention/webhook → ${hook.status}`, hook.status === 200]);
  const rec = await fetch(`${base}/retention/api/subscribers/user_42/recommend`, { headers: { authorization: 'Bearer example-api-key' } });
  const body = (await rec.json()) as { recommendations: { action: string }[] };
  checks.push([`GET /retention/api/subscribers/user_42/recommend → ${body.recommendations[0]?.action}`, body.recommendations[0]?.action === 'winback']);
  const host = await fetch(`${base}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"sku":"a"}' });
  checks.push([`POST /orders (host route) → ${host.status}`, host.status === 201]);
} finally {
  server.close();
  server.closeAllConnections();
  await closeRetentionApp(retention);
}
for (const [name, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
