// The webhook channel over the JSON API: a batch dispatch routes to the endpoints, the dispatch log
// shows webhook rows, POST /api/dispatches/{id}/resend sends a refused delivery again (same
// webhook-id) and answers 404, 400 and 409 with JSON errors naming the field; GET /api/config lists
// the endpoints without their secrets.
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type ReceiverAnswer } from './helpers/webhookReceiver.js';
import { createAlertWebhookNotifier, createMemoryDispatchLog } from '../src/index.js';
import { seed } from './helpers/seed.js';
import { eventually, startTestServer, type TestServer } from './helpers/testServer.js';

const SECRET = `whsec_${Buffer.from('an http test secret of 32 bytes!').toString('base64')}`;

let app: TestServer | undefined;
let closeReceiver = async () => {};
afterEach(async () => {
  await app?.close();
  await closeReceiver();
});

async function startReceiver(answers: ReceiverAnswer[]) {
  const receiver = await startWebhookReceiver(answers, '/in?token=t0ps3cret');
  closeReceiver = receiver.close;
  return receiver;
}

describe('alert webhooks over the JSON API', () => {
  it('dispatches to the endpoint, shows the refusal, resends it with the same webhook-id, and refuses bad resends', async () => {
    const receiver = await startReceiver([{ status: 422, body: 'unknown customer' }]);
    const hook = createAlertWebhookNotifier({ name: 'crm', url: receiver.url, secret: SECRET, urgencies: ['immediate'] });
    app = await startTestServer({ alertWebhooks: [hook], dispatch: { auto: false } });
    await seed(app, 'c1', 'churned');
    const pass = await app.request('POST', '/api/dispatch', {});
    expect(pass.status).toBe(200);
    expect(pass.body.channels.webhook).toMatchObject({ failed: 1 });
    expect(pass.body.planned.map((p: { channel: string; target: string | null }) => [p.channel, p.target])).toEqual([['email', null], ['chat', null], ['webhook', 'crm']]);
    // A dry run and the dashboard's dispatch name the endpoint too, as the log's records do.
    expect((await app.request('POST', '/api/dispatch', { dry_run: true })).body.planned.map((p: { target: string | null }) => p.target)).toEqual([null, null, 'crm']);
    const one = await app.request('POST', '/api/subscribers/c1/dispatch', { dry_run: true });
    expect(one.status).toBe(200);
    expect(one.body.planned).toMatchObject([{ channel: 'email', target: null }, { channel: 'chat', target: null }, { customer_id: 'c1', channel: 'webhook', target: 'crm' }]);

    const log = (await app.request('GET', '/api/dispatches?limit=50')).body.items as Record<string, unknown>[];
    const hooks = log.filter((r) => r['channel'] === 'webhook');
    expect(hooks.map((r) => [r['outcome'], r['target']])).toEqual([['failed', 'crm'], ['pending', 'crm']]);
    expect(JSON.parse(String(hooks[0]!['detail']))).toEqual({ status: 422, body: 'unknown customer' });
    const failedId = Number(hooks[0]!['id']);

    const resent = await app.request('POST', `/api/dispatches/${failedId}/resend`, { actor: 'ops@example.com' });
    expect(resent.status).toBe(202);
    expect(resent.body.record).toMatchObject({ outcome: 'pending', trigger: 'manual', actor: 'ops@example.com', target: 'crm', delivery_id: hooks[0]!['delivery_id'] });
    await eventually(() => expect(receiver.received).toHaveLength(2), 5000);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    new Webhook(SECRET).verify(receiver.received[1]!.body, receiver.received[1]!.headers as Record<string, string>);
    await eventually(async () => expect((await app!.request('GET', '/api/dispatches?limit=1')).body.items[0]).toMatchObject({ outcome: 'sent', trigger: 'manual', actor: 'ops@example.com' }), 5000);

    const email = log.find((r) => r['channel'] === 'email')!;
    const errors = await Promise.all([
      app.request('POST', '/api/dispatches/999999/resend'),
      app.request('POST', `/api/dispatches/${String(email['id'])}/resend`),
      app.request('POST', '/api/dispatches/abc/resend'),
      app.request('POST', `/api/dispatches/${failedId}/resend`, { actor: 7 }),
      app.request('POST', `/api/dispatches/${failedId}/resend`, { other: true }),
    ]);
    expect(errors.map((e) => [e.status, e.body.error.field])).toEqual([[404, 'id'], [400, 'id'], [400, 'id'], [400, 'actor'], [400, 'other']]);
  });

  it('answers 409 while a delivery is still in flight, and GET /api/config shows endpoints without secrets or URL paths', async () => {
    const receiver = await startReceiver([]);
    const hook = createAlertWebhookNotifier({ name: 'crm', url: receiver.url, secret: SECRET });
    const dispatchLog = createMemoryDispatchLog();
    app = await startTestServer({ alertWebhooks: [hook], dispatch: { auto: false, log: dispatchLog } });
    const pending = await dispatchLog.append({ at: 0, customer_id: 'c9', action: 'winback', urgency: 'immediate', risk_score: 90, channel: 'webhook', outcome: 'pending', attempt: 0, error: null, trigger: 'batch', target: 'crm', detail: '{"data":{"dispatch_id":"x"}}' });
    const conflict = await app.request('POST', `/api/dispatches/${pending.id}/resend`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({ code: 'conflict', field: 'id' });
    const config = await app.request('GET', '/api/config');
    expect(config.body.alert_webhooks).toEqual([{ name: 'crm', origin: new URL(receiver.url).origin, urgencies: ['immediate', 'soon'] }]);
    expect(JSON.stringify(config.body)).not.toContain(SECRET.slice(6, 20));
    expect(JSON.stringify(config.body)).not.toContain('t0ps3cret');
  });
});
