// SANDBOX webhooks are kept apart from PRODUCTION: never in production scores, lists or alerts,
// readable with ?environment=sandbox; events without `environment` are production.
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, fixture, T0 } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/testServer.js';
import { isSandboxEvent } from '../src/webhook/handleWebhook.js';

let app: TestServer;
afterEach(() => app.close());

const ids = (body: { items: { customer_id: string }[] }) => body.items.map((i) => i.customer_id);

/** A purchase then a billing issue for `customer` in `environment` (undefined: the field is left out). */
async function failingPayment(customer: string, environment: string | undefined) {
  const env = environment === undefined ? {} : { environment };
  const base = { app_user_id: customer, purchased_at_ms: T0, expiration_at_ms: T0 + 30 * DAY, ...env };
  for (const body of [
    fixture('initial_purchase', { ...base, id: `${customer}-${environment}-start`, event_timestamp_ms: T0 }),
    fixture('billing_issue', { ...base, id: `${customer}-${environment}-billing`, event_timestamp_ms: T0 + 1 }),
  ]) {
    if (environment === undefined) delete (body.event as Record<string, unknown>)['environment'];
    const res = await app.webhook(body);
    expect(res.body).toEqual({ ok: true, result: 'applied' });
  }
}

describe('environment: sandbox kept apart', () => {
  it.each(['listener', 'express'] as const)('a sandbox purchase and billing issue never alert and never appear in the default list (%s)', async (mode) => {
    app = await startTestServer({}, mode);
    await failingPayment('tester', 'SANDBOX');
    await new Promise((resolve) => setTimeout(resolve, 50)); // auto-dispatch runs after the response
    expect(app.email.sent).toHaveLength(0);
    expect(app.chat.sent).toHaveLength(0);
    expect(ids((await app.request('GET', '/api/at-risk?min_score=0')).body)).toEqual([]);
    expect((await app.request('GET', '/api/at-risk')).body.total).toEqual({ subscribers: 0, monthly_value_usd: 0 });
    expect((await app.request('GET', '/api/subscribers/tester')).status).toBe(404);
    expect((await app.request('POST', '/api/dispatch', {})).body).toMatchObject({ subscribers: 0, deliveries: 0 });
    expect(await app.store.count()).toBe(0);

    const sandbox = await app.request('GET', '/api/at-risk?environment=sandbox');
    expect(ids(sandbox.body)).toEqual(['tester']);
    expect(sandbox.body.items[0]).toMatchObject({ state: 'billing_issue', monthly_value_usd: 9.99 });
    expect(sandbox.body.total).toEqual({ subscribers: 1, monthly_value_usd: 9.99 });
    expect((await app.request('GET', '/api/subscribers/tester?environment=sandbox')).body).toMatchObject({ customer_id: 'tester', state: 'billing_issue' });
    expect((await app.request('GET', '/api/subscribers/tester/recommend?environment=sandbox')).status).toBe(200);
    expect((await app.request('POST', '/api/subscribers/tester/activity?environment=sandbox', { at: T0 + DAY })).status).toBe(200);
  });

  it('keeps one customer id in both environments as two subscribers; production alerts as before', async () => {
    app = await startTestServer();
    await failingPayment('same', 'SANDBOX');
    await failingPayment('same', 'PRODUCTION');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.chat.sent.map((m) => m.alert.customer_id)).toEqual(['same']);
    expect((await app.request('GET', '/api/subscribers/same')).body).toMatchObject({ event_count: 2 });
    expect((await app.request('GET', '/api/subscribers/same?environment=sandbox')).body).toMatchObject({ event_count: 2 });
    expect((await app.request('GET', '/api/subscribers/same?environment=production')).body).toMatchObject({ event_count: 2 });
  });

  it('reads SANDBOX in any case as sandbox; anything else, or nothing, is production', () => {
    expect(['SANDBOX', 'sandbox', 'Sandbox'].map((environment) => isSandboxEvent({ environment }))).toEqual([true, true, true]);
    expect(['PRODUCTION', '', 'SANDBOXX', null, undefined].map((environment) => isSandboxEvent({ environment }))).toEqual([false, false, false, false, false]);
  });

  it('counts an event without environment as production', async () => {
    app = await startTestServer();
    await failingPayment('plain', undefined);
    expect(ids((await app.request('GET', '/api/at-risk')).body)).toEqual(['plain']);
    expect(ids((await app.request('GET', '/api/at-risk?environment=sandbox&min_score=0')).body)).toEqual([]);
  });

  it.each([
    ['GET', '/api/at-risk?environment=staging'],
    ['GET', '/api/subscribers/x?environment=SANDBOXX'],
    ['POST', '/api/dispatch?environment=sandbox'],
  ])('answers 400 naming environment for %s %s (dispatch is production only)', async (method, path) => {
    app = await startTestServer();
    const res = await app.request(method, path, method === 'POST' ? {} : undefined);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'environment' });
  });
});
