import { afterEach, describe, expect, it } from 'vitest';
import { DAY, T0 } from './helpers/fixtures.js';
import { seed } from './helpers/seed.js';
import { startTestServer, type TestServer } from './helpers/testServer.js';

let app: TestServer;
afterEach(() => app.close());

describe('GET /health', () => {
  it('answers { status: "ok", service } with the configured service name', async () => {
    app = await startTestServer({ serviceName: 'acme-retention', apiKey: 'k' });
    expect(await app.request('GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok', service: 'acme-retention' } });
  });
});

describe('unknown routes', () => {
  it('answer 404 in the error shape', async () => {
    app = await startTestServer();
    const res = await app.request('GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: 'No route for GET /nope' } });
    expect((await app.request('DELETE', '/api/at-risk')).body.error.code).toBe('not_found');
  });
});

describe('/api authentication', () => {
  it('answers 401 without or with a wrong bearer key, and serves with the right one', async () => {
    app = await startTestServer({ apiKey: 'tenure-key' });
    await seed(app, 'u1', 'active');
    for (const headers of [{}, { authorization: 'Bearer tenure-kez' }, { authorization: 'tenure-key' }, { authorization: 'Basic tenure-key' }]) {
      const res = await app.request('GET', '/api/subscribers/u1', undefined, headers);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
    expect((await app.request('GET', '/api/subscribers/u1', undefined, { authorization: 'Bearer tenure-key' })).status).toBe(200);
    expect((await app.request('GET', '/api/subscribers/u1', undefined, { authorization: 'bearer tenure-key' })).status).toBe(200);
  });

  it('is open when no key is set', async () => {
    app = await startTestServer();
    expect((await app.request('GET', '/api/at-risk')).status).toBe(200);
  });
});

describe('GET /api/subscribers/:customer_id', () => {
  it('returns state, counters, timestamps, score and breakdown', async () => {
    app = await startTestServer();
    await seed(app, 'u1', 'billing');
    const res = await app.request('GET', '/api/subscribers/u1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      customer_id: 'u1',
      state: 'billing_issue',
      product_id: 'pro_monthly',
      billing_failures: 1,
      renewals: 0,
      first_event_at: T0,
      last_event_at: T0 + 1,
      event_count: 2,
      risk_score: 90,
      risk_band: 'critical',
      breakdown: { state: 80, billing_failures: 10, renewals: 0, inactivity: 0, trial_conversion: 0 },
      // The fixtures' price, of the latest event that charged something (seed gives a 30-day period).
      revenue: { price: 9.99, price_in_purchased_currency: 9.99, currency: 'USD', takehome_percentage: 0.85, store: 'APP_STORE', period_ms: 30 * DAY },
      monthly_value_usd: 9.99,
    });
    expect(res.body).not.toHaveProperty('state_key');
    expect(res.body).not.toHaveProperty('revenue_key');
  });

  it('answers 404 for an unknown customer', async () => {
    app = await startTestServer();
    const res = await app.request('GET', '/api/subscribers/ghost');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found', field: 'customer_id' });
  });

  it('answers 400 (not 500) for a malformed %-escape in the id', async () => {
    app = await startTestServer();
    const res = await app.request('GET', '/api/subscribers/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });

  it('answers 400 naming customer_id for an id no database can store (U+0000)', async () => {
    app = await startTestServer();
    const res = await app.request('GET', '/api/subscribers/a%00b');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'customer_id' });
  });

  it('decodes URL-encoded ids', async () => {
    app = await startTestServer();
    await seed(app, '$RCAnonymousID:a b/c', 'active');
    expect((await app.request('GET', `/api/subscribers/${encodeURIComponent('$RCAnonymousID:a b/c')}`)).status).toBe(200);
  });
});

describe('GET /api/subscribers/:customer_id/recommend', () => {
  it('returns the score, band, breakdown and ranked recommendations', async () => {
    app = await startTestServer();
    await seed(app, 'u1', 'billing');
    const res = await app.request('GET', '/api/subscribers/u1/recommend');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['breakdown', 'customer_id', 'recommendations', 'risk_band', 'risk_score']);
    expect(res.body.recommendations.map((r: { action: string; urgency: string; priority: number }) => [r.action, r.urgency, r.priority])).toEqual([
      ['billing_failure_alert', 'immediate', 1],
      ['payment_update', 'immediate', 2],
    ]);
    expect(res.body.recommendations[0].reason).toEqual(expect.any(String));
  });

  it('answers 404 for an unknown customer', async () => {
    app = await startTestServer();
    expect((await app.request('GET', '/api/subscribers/ghost/recommend')).status).toBe(404);
  });

  it('applies rule overrides from the config option', async () => {
    app = await startTestServer({ config: { recommend: { billing_alert_above: 95 } } });
    await seed(app, 'u1', 'billing'); // score 90: no longer above the alert threshold
    const res = await app.request('GET', '/api/subscribers/u1/recommend');
    expect(res.body.recommendations.map((r: { action: string }) => r.action)).toEqual(['payment_update']);
  });
});

describe('POST /api/subscribers/:customer_id/activity', () => {
  it('records activity at the given time, or now by default', async () => {
    app = await startTestServer();
    await seed(app, 'u1', 'active');
    const res = await app.request('POST', '/api/subscribers/u1/activity', { at: T0 + 3 * DAY });
    expect(res).toMatchObject({ status: 200, body: { ok: true, customer_id: 'u1', last_activity_at: T0 + 3 * DAY } });
    app.clock.set(T0 + 5 * DAY);
    expect((await app.request('POST', '/api/subscribers/u1/activity')).body.last_activity_at).toBe(T0 + 5 * DAY);
  });

  it('feeds the inactivity signal', async () => {
    app = await startTestServer();
    await seed(app, 'u1', 'active');
    app.clock.set(T0 + 40 * DAY);
    const before = (await app.request('GET', '/api/subscribers/u1')).body;
    expect(before.breakdown.inactivity).toBeGreaterThan(0);
    await app.request('POST', '/api/subscribers/u1/activity', {});
    expect((await app.request('GET', '/api/subscribers/u1')).body.breakdown.inactivity).toBe(0);
  });

  it('answers 404 for an unknown customer and creates nothing', async () => {
    app = await startTestServer();
    expect((await app.request('POST', '/api/subscribers/ghost/activity', {})).status).toBe(404);
    expect(await app.store.count()).toBe(0);
  });

  it.each([
    [{ at: 'now' }, 'at'],
    [{ at: -1 }, 'at'],
    [{ at: 1.5 }, 'at'],
    [{ when: 1 }, 'when'],
    [[1], 'body'],
  ])('answers 400 naming the field for %j', async (body, field) => {
    app = await startTestServer();
    await seed(app, 'u1', 'active');
    const res = await app.request('POST', '/api/subscribers/u1/activity', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
  });

  it('answers 415 for a body that is not application/json', async () => {
    app = await startTestServer();
    await seed(app, 'u1', 'active');
    const res = await app.request('POST', '/api/subscribers/u1/activity', '{"at":1}', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
  });

  it('answers 400 invalid_json for malformed JSON and 413 for a body over 1 MB', async () => {
    app = await startTestServer();
    await seed(app, 'u1', 'active');
    expect((await app.request('POST', '/api/subscribers/u1/activity', '{"at":')).body.error).toMatchObject({ code: 'invalid_json', field: 'body' });
    const big = JSON.stringify({ pad: 'x'.repeat(1024 * 1024) });
    const res = await app.request('POST', '/api/subscribers/u1/activity', big);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });
});
