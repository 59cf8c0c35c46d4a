// POST /api/subscribers/{id}/offers/{action} against the billing simulator as RevenueCat, both over
// real HTTP on 127.0.0.1: the grant reaches the simulator, is recorded in the dispatch log, and
// every refusal has its status (400, 404, 409, 502).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, T0 } from '../helpers/fixtures.js';
import { seed } from '../helpers/seed.js';
import { eventually, startTestServer, type Mode, type TestServer } from '../helpers/testServer.js';
import { startOfferSim, type OfferSim } from './offerSim.js';

let app: TestServer | undefined;
let sim: OfferSim | undefined;
afterEach(async () => {
  await app?.close();
  await sim?.stop();
  app = sim = undefined;
});

const offerLog = async (server: TestServer) => (await server.request('GET', '/api/dispatches?limit=100')).body.items.filter((r: { channel: string }) => r.channel === 'offer');

describe.each<Mode>(['listener', 'express'])('offers over the %s binding', (mode) => {
  it('grants the offer through RevenueCat: expires_at is the service clock plus the duration, the answer and the log record say so', async () => {
    sim = await startOfferSim(['ann']);
    app = await startTestServer({ offers: sim.offers({ winback: { entitlement: 'pro', duration: 'P7D' } }) }, mode);
    await seed(app, 'ann', 'churned');
    const res = await app.request('POST', '/api/subscribers/ann/offers/winback', { actor: 'dana' });
    expect(res.status).toBe(200);
    const now = app.clock.now();
    expect(res.body.granted).toEqual({ customer_id: 'ann', action: 'winback', entitlement: sim.pro, duration: 'P7D', expires_at: now + 7 * DAY });
    expect(res.body.revenuecat).toMatchObject({ status: 201, body: { object: 'customer', id: 'ann' } });
    // Read back through the simulator's API: the grant is active until the offer ends.
    expect(await sim.active('ann')).toContainEqual({ object: 'customer.active_entitlement', entitlement_id: sim.pro, expires_at: now + 7 * DAY });
    const [record] = await offerLog(app);
    expect(record).toMatchObject({ id: res.body.dispatch_id, customer_id: 'ann', action: 'winback', urgency: 'immediate', channel: 'offer', outcome: 'sent', trigger: 'manual', target: sim.pro, actor: 'dana', error: null });
    expect(JSON.parse(record.detail)).toEqual({ entitlement: sim.pro, duration: 'P7D', expires_at: now + 7 * DAY, answer: res.body.revenuecat });
  });

  it('names the actor "api" when the body names none, and answers 409 within the cooldown, 200 again after it', async () => {
    sim = await startOfferSim(['ann']);
    app = await startTestServer({ offers: sim.offers({ winback: { entitlement: 'pro', duration: 'P1D', cooldown: 'P3D' } }) }, mode);
    await seed(app, 'ann', 'churned');
    expect((await app.request('POST', '/api/subscribers/ann/offers/winback')).status).toBe(200);
    app.clock.set(T0 + 3 * DAY - 1);
    await sim.call('POST', '/sim/clock/advance', { by: 'P2D' });
    const again = await app.request('POST', '/api/subscribers/ann/offers/winback', {});
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'conflict', field: 'action' } } });
    expect(again.body.error.message).toContain('P3D');
    app.clock.set(T0 + 3 * DAY + 1);
    await sim.call('POST', '/sim/clock/advance', { by: 'PT2H' });
    expect((await app.request('POST', '/api/subscribers/ann/offers/winback')).status).toBe(200);
    expect((await offerLog(app)).map((r: { actor: string; outcome: string }) => [r.actor, r.outcome])).toEqual([['api', 'sent'], ['api', 'sent']]);
  });

  it('answers 400 naming `action` without an offer for it (or for an unknown action), 404 for an unknown customer, 400 for a bad body', async () => {
    sim = await startOfferSim(['ann']);
    app = await startTestServer({ offers: sim.offers({ winback: { entitlement: 'pro', duration: 'P7D' } }) }, mode);
    await seed(app, 'ann', 'churned');
    const none = await app.request('POST', '/api/subscribers/ann/offers/loyalty_discount');
    expect(none).toMatchObject({ status: 400, body: { error: { code: 'invalid_request', field: 'action' } } });
    expect(none.body.error.message).toContain('offers.loyalty_discount');
    expect(await app.request('POST', '/api/subscribers/ann/offers/free_beer')).toMatchObject({ status: 400, body: { error: { field: 'action' } } });
    expect(await app.request('POST', '/api/subscribers/nobody/offers/winback')).toMatchObject({ status: 404, body: { error: { code: 'not_found', field: 'customer_id' } } });
    expect(await app.request('POST', '/api/subscribers/ann/offers/winback', { actor: 5 })).toMatchObject({ status: 400, body: { error: { field: 'actor' } } });
    expect(await app.request('POST', '/api/subscribers/ann/offers/winback', { actor: 'x', extra: 1 })).toMatchObject({ status: 400 });
    expect(await app.request('POST', '/api/subscribers/ann/offers/winback', '{"actor":')).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
    expect(await offerLog(app)).toEqual([]);
    expect(await sim.active('ann')).toEqual([]);
  });

  it('answers 400 for every action when no offers are configured', async () => {
    app = await startTestServer({}, mode);
    await seed(app, 'ann', 'churned');
    expect(await app.request('POST', '/api/subscribers/ann/offers/winback')).toMatchObject({ status: 400, body: { error: { field: 'action' } } });
    expect((await app.request('GET', '/api/subscribers/ann')).body.offers).toBeUndefined();
  });
});

describe('revoking a granted offer', () => {
  it('revokes the grant of a dispatch record through RevenueCat, records who and its answer, counts both in /metrics, and refuses what it cannot revoke', async () => {
    sim = await startOfferSim(['ann']);
    app = await startTestServer({ offers: sim.offers({ winback: { entitlement: 'pro', duration: 'P7D' } }) });
    await seed(app, 'ann', 'churned');
    const granted = await app.request('POST', '/api/subscribers/ann/offers/winback', { actor: 'dana' });
    expect(granted.status).toBe(200);
    expect(await sim.active('ann')).toHaveLength(1);
    const grantId = granted.body.dispatch_id as number;

    const res = await app.request('POST', `/api/dispatches/${grantId}/revoke`, { actor: 'lee' });
    expect(res.status).toBe(200);
    expect(res.body.revoked).toEqual({ grant_id: grantId, customer_id: 'ann', action: 'winback', entitlement: sim.pro });
    expect(res.body.revenuecat).toMatchObject({ status: 200, body: { object: 'customer', id: 'ann' } });
    expect(await sim.active('ann')).toEqual([]); // read back through the simulator's API
    const log = await offerLog(app);
    const revoke = (await app.request('GET', '/api/dispatches?limit=100')).body.items.find((r: { channel: string }) => r.channel === 'offer_revoke');
    expect(revoke).toMatchObject({ id: res.body.dispatch_id, customer_id: 'ann', action: 'winback', outcome: 'sent', trigger: 'manual', actor: 'lee', target: sim.pro, delivery_id: log[0].delivery_id, error: null });
    expect(JSON.parse(revoke.detail)).toEqual({ entitlement: sim.pro, grant_id: grantId, answer: res.body.revenuecat });

    // Twice: 409; a record that is no grant: 400; an unknown one: 404; a bad body: 400; nothing more sent.
    expect(await app.request('POST', `/api/dispatches/${grantId}/revoke`)).toMatchObject({ status: 409, body: { error: { code: 'conflict', field: 'id' } } });
    expect(await app.request('POST', `/api/dispatches/${res.body.dispatch_id}/revoke`)).toMatchObject({ status: 400, body: { error: { field: 'id' } } });
    expect(await app.request('POST', '/api/dispatches/999999/revoke')).toMatchObject({ status: 404, body: { error: { field: 'id' } } });
    expect(await app.request('POST', '/api/dispatches/abc/revoke')).toMatchObject({ status: 400, body: { error: { field: 'id' } } });
    expect(await app.request('POST', `/api/dispatches/${grantId}/revoke`, { actor: '' })).toMatchObject({ status: 400, body: { error: { field: 'actor' } } });
    // The person's cooldown is kept: a revoke undoes the access, not the decision to wait.
    expect((await app.request('POST', '/api/subscribers/ann/offers/winback')).status).toBe(409);

    const metrics = (await app.request('GET', '/metrics')).body as string;
    expect(metrics).toContain('tenure_offers_total{action="winback",outcome="granted",trigger="manual"} 1');
    expect(metrics).toContain('tenure_offers_total{action="winback",outcome="revoked",trigger="manual"} 1');
    expect(metrics).toContain('tenure_offers_total{action="winback",outcome="skipped_cooldown",trigger="manual"} 1');
  });

  it('answers 409 for a grant that has ended, 502 with RevenueCat’s answer when it refuses (recorded failed), and 409 without offers configured', async () => {
    sim = await startOfferSim(['ann', 'bob']);
    app = await startTestServer({ offers: sim.offers({ winback: { entitlement: 'pro', duration: 'P1D' } }) });
    await seed(app, 'ann', 'churned');
    await seed(app, 'bob', 'churned');
    const ann = (await app.request('POST', '/api/subscribers/ann/offers/winback')).body.dispatch_id as number;
    const bob = (await app.request('POST', '/api/subscribers/bob/offers/winback')).body.dispatch_id as number;
    // RevenueCat no longer has bob's grant (revoked there directly): its 404 comes back as a 502.
    expect((await sim.call('POST', `/v2/projects/${sim.project}/customers/bob/actions/revoke_granted_entitlement`, { entitlement_id: sim.pro })).status).toBe(200);
    const refused = await app.request('POST', `/api/dispatches/${bob}/revoke`);
    expect(refused).toMatchObject({ status: 502, body: { error: { code: 'bad_gateway' }, revenuecat: { status: 404 } } });
    expect((await app.request('GET', '/api/dispatches?limit=1')).body.items[0]).toMatchObject({ channel: 'offer_revoke', outcome: 'failed', error: 'RevenueCat answered 404' });
    expect((await app.request('GET', '/metrics')).body).toContain('tenure_offers_total{action="winback",outcome="revoke_failed",trigger="manual"} 1');
    app.clock.set(T0 + 2 * DAY);
    const ended = await app.request('POST', `/api/dispatches/${ann}/revoke`);
    expect(ended).toMatchObject({ status: 409, body: { error: { field: 'id' } } });
    expect(ended.body.error.message).toContain('ended');
    await app.close();
    app = await startTestServer();
    expect(await app.request('POST', `/api/dispatches/${ann}/revoke`)).toMatchObject({ status: 409, body: { error: { field: 'id' } } });
  });
});

describe('offers RevenueCat refuses or cannot be reached', () => {
  it('answers 502 with RevenueCat’s answer when it refuses (an unknown entitlement), records it failed, and keeps no cooldown', async () => {
    sim = await startOfferSim(['ann']);
    app = await startTestServer({ offers: { ...sim.offers({}), offers: [{ action: 'winback', entitlement: 'entl_nope', duration: 'P7D', duration_ms: 7 * DAY, auto: false, daily_cap: 20, cooldown: 'P30D', cooldown_ms: 30 * DAY }] } });
    await seed(app, 'ann', 'churned');
    const res = await app.request('POST', '/api/subscribers/ann/offers/winback');
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: 'bad_gateway' });
    expect(res.body.revenuecat).toMatchObject({ status: 404, body: { type: 'resource_missing' } });
    const [record] = await offerLog(app);
    expect(record).toMatchObject({ outcome: 'failed', error: 'RevenueCat answered 404', target: 'entl_nope' });
    expect(JSON.parse(record.detail).answer).toEqual(res.body.revenuecat);
    // Nothing was granted, so nothing holds a second try back: 502 again, not 409.
    expect((await app.request('POST', '/api/subscribers/ann/offers/winback')).status).toBe(502);
  });

  it('answers 502 when RevenueCat cannot be reached (status null) and records it failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offers = [{ action: 'winback' as const, entitlement: 'pro', duration: 'P7D', duration_ms: 7 * DAY, auto: false, daily_cap: 20, cooldown: 'P30D', cooldown_ms: 30 * DAY }];
    app = await startTestServer({ offers: { offers, apiKey: 'sk', project: 'p', baseUrl: `http://127.0.0.1:${port}/v2`, timeoutMs: 2_000 } });
    await seed(app, 'ann', 'churned');
    const res = await app.request('POST', '/api/subscribers/ann/offers/winback');
    expect(res).toMatchObject({ status: 502, body: { error: { code: 'bad_gateway' }, revenuecat: { status: null } } });
    expect(res.body.error.message).toContain('could not be reached');
    expect((await offerLog(app))[0]).toMatchObject({ outcome: 'failed', error: 'RevenueCat unreachable' });
  });
});

describe('the subscriber view with offers', () => {
  it('shows each offer and whether its action is recommended now (production only)', async () => {
    sim = await startOfferSim([]);
    app = await startTestServer({ offers: sim.offers({ winback: { entitlement: 'pro', duration: 'P7D' }, loyalty_discount: { entitlement: 'pro', duration: 'P14D', auto: true } }) });
    await seed(app, 'ann', 'churned');
    const view = (await app.request('GET', '/api/subscribers/ann')).body;
    expect(view.offers).toEqual([
      { action: 'winback', entitlement: sim.pro, duration: 'P7D', auto: false, daily_cap: 20, cooldown: 'P30D', recommended: true },
      { action: 'loyalty_discount', entitlement: sim.pro, duration: 'P14D', auto: true, daily_cap: 20, cooldown: 'P30D', recommended: false },
    ]);
    const recommended = (await app.request('GET', '/api/subscribers/ann/recommend')).body.recommendations.map((r: { action: string }) => r.action);
    expect(recommended).toContain('winback');
  });
});

describe('automatic offers', () => {
  it('a batch dispatch grants the automatic offer of the recommended action, at most daily_cap a UTC day; the next day the rest', async () => {
    sim = await startOfferSim(['c1', 'c2', 'c3']);
    // Webhook auto-dispatch off: only the batch pass grants.
    app = await startTestServer({ offers: sim.offers({ winback: { entitlement: 'pro', duration: 'P7D', auto: true, daily_cap: 2 } }), dispatch: { auto: false } });
    for (const c of ['c1', 'c2', 'c3']) await seed(app, c, 'churned');
    expect(await offerLog(app)).toEqual([]);
    expect((await app.request('POST', '/api/dispatch', {})).status).toBe(200);
    const first = await offerLog(app);
    expect(first).toHaveLength(2);
    for (const r of first) expect(r).toMatchObject({ channel: 'offer', action: 'winback', trigger: 'auto', outcome: 'sent', actor: null, target: sim.pro });
    const granted = async () => (await Promise.all(['c1', 'c2', 'c3'].map(async (c) => ((await sim!.active(c)).length > 0 ? c : null)))).filter((c) => c !== null);
    expect(await granted()).toHaveLength(2);
    // The same day: the cap is reached, nothing more.
    await app.request('POST', '/api/dispatch', {});
    expect(await offerLog(app)).toHaveLength(2);
    const metrics = (await app.request('GET', '/metrics')).body as string;
    expect(metrics).toContain('tenure_offers_total{action="winback",outcome="granted",trigger="auto"} 2');
    expect(metrics).toContain('tenure_offers_total{action="winback",outcome="skipped_cap",trigger="auto"} 2'); // the third customer, each pass
    expect(metrics).toContain('tenure_offers_total{action="winback",outcome="skipped_cooldown",trigger="auto"} 2'); // the first two, second pass
    // The next UTC day: the third customer; the first two are within the cooldown.
    app.clock.set((Math.floor(app.clock.now() / DAY) + 1) * DAY + 60_000);
    await app.request('POST', '/api/dispatch', {});
    expect(await offerLog(app)).toHaveLength(3);
    expect(await granted()).toEqual(['c1', 'c2', 'c3']);
  });

  it('a webhook that raises the recommendation grants it right after answering; an offer without auto is never granted by a dispatch', async () => {
    sim = await startOfferSim(['ann', 'bob']);
    app = await startTestServer({ offers: sim.offers({ winback: { entitlement: 'pro', duration: 'P7D', auto: true }, billing_failure_alert: { entitlement: 'pro', duration: 'P3D' } }) });
    await seed(app, 'ann', 'churned');
    await eventually(async () => expect(await offerLog(app!)).toMatchObject([{ customer_id: 'ann', action: 'winback', trigger: 'auto', outcome: 'sent' }]), 5_000);
    expect(await sim.active('ann')).toHaveLength(1);
    await seed(app, 'bob', 'billing');
    await app.request('POST', '/api/dispatch', {});
    expect((await offerLog(app)).map((r: { customer_id: string }) => r.customer_id)).toEqual(['ann']);
    expect(await sim.active('bob')).toEqual([]);
  });
});

describe('the offer route in /openapi.json', () => {
  it('documents the path, its parameters, body and every answer; the 200 and the subscriber view’s offers match what the service answers', async () => {
    app = await startTestServer();
    const doc = (await app.request('GET', '/openapi.json')).body;
    const route = doc.paths['/api/subscribers/{customer_id}/offers/{action}'].post;
    expect(route.parameters.map((p: { name: string }) => p.name)).toEqual(['customer_id', 'action']);
    expect(Object.keys(route.requestBody.content['application/json'].schema.properties)).toEqual(['actor']);
    expect(Object.keys(route.responses).sort()).toEqual(['200', '400', '401', '404', '409', '502']);
    expect(route.responses['200'].content['application/json'].schema.required).toEqual(['granted', 'revenuecat', 'dispatch_id']);
    expect(route.responses['502'].content['application/json'].schema.required).toContain('error');
    const view = doc.paths['/api/subscribers/{customer_id}'].get.responses['200'].content['application/json'].schema;
    expect(view.properties.offers.items.required).toEqual(['action', 'entitlement', 'duration', 'auto', 'daily_cap', 'cooldown', 'recommended']);
  });
});
