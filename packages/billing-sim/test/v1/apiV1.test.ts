/**
 * API v1 beyond its document's shapes: keys (development mode, the secret key, the projects' public
 * keys), CORS, percent-decoded ids, errors that change nothing, the Test Store's purchases and
 * schedule, identify, attribute conflicts, and the promotional webhooks of grants of both APIs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers.js';

let app: TestApp;
afterEach(async () => {
  await app?.close();
});

const NOW = Date.UTC(2026, 0, 1);
const MIN = 60_000;

async function setup(handler: { apiKey?: string } = {}) {
  app = await startApp({ now: NOW }, handler);
  const key = handler.apiKey === undefined ? {} : { authorization: `Bearer ${handler.apiKey}` };
  await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D', entitlement_ids: ['pro'] }, key);
  await app.call('POST', '/sim/products', { id: 'annual', type: 'subscription', period: 'P1Y', entitlement_ids: ['pro'] }, key);
  return app;
}

const v1 = (method: string, path: string, body?: unknown, key = 'test_dev', headers: Record<string, string> = {}) =>
  app.call(method, path, body, { authorization: `Bearer ${key}`, ...headers });
const types = () => app.sim.events().map((e) => e.event.type);
const last = () => app.sim.events().at(-1)!.event as Record<string, any>;

describe('API v1: keys', () => {
  it('in development mode takes any public-prefixed key as the default project\'s app and any other key as the secret one', async () => {
    await setup();
    expect((await v1('GET', '/v1/subscribers/ann', undefined, 'appl_anything')).status).toBe(201);
    expect((await v1('GET', '/v1/subscribers/ann', undefined, 'sk_anything')).body.subscriber.subscriber_attributes).toEqual({});
    expect((await v1('GET', '/v1/subscribers/ann', undefined, 'test_x')).body.subscriber.subscriber_attributes).toBeUndefined();
    expect(await app.call('GET', '/v1/subscribers/ann')).toMatchObject({ status: 401, body: { code: 7225 } });
  });

  it('with a secret key set, opens API v1 to that key and to the projects\' public keys only (7225 otherwise)', async () => {
    await setup({ apiKey: 'sk_real' });
    const keys = await app.call('GET', '/v2/projects/proj1/apps/app_sim/public_api_keys', undefined, { authorization: 'Bearer sk_real' });
    const proj1Key = keys.body.items[0].key as string;
    expect(await v1('GET', '/v1/subscribers/ann', undefined, 'test_guessed')).toMatchObject({ status: 401, body: { code: 7225, message: 'Invalid API key.' } });
    expect((await v1('GET', '/v1/subscribers/ann', undefined, proj1Key)).status).toBe(201);
    // The public key reaches its own project: proj1 has ann, the default project does not.
    expect((await app.call('GET', '/v2/projects/proj1/customers/ann', undefined, { authorization: 'Bearer sk_real' })).status).toBe(200);
    expect((await app.call('GET', '/v2/projects/proj_sim/customers/ann', undefined, { authorization: 'Bearer sk_real' })).status).toBe(404);
    expect((await v1('GET', '/v1/subscribers/ann', undefined, 'sk_real')).status).toBe(201);
  });

  it('refuses a secret-only operation to a public key (403) and the offerings to the secret key (403, 7243), changing nothing', async () => {
    await setup();
    await v1('GET', '/v1/subscribers/ann');
    expect(await v1('DELETE', '/v1/subscribers/ann')).toMatchObject({ status: 403, body: { code: 7225 } });
    expect((await v1('GET', '/v1/subscribers/ann')).status).toBe(200);
    expect(await v1('GET', '/v1/subscribers/ann/offerings', undefined, 'sk_x')).toMatchObject({ status: 403, body: { code: 7243 } });
  });
});

describe('API v1: the HTTP edge', () => {
  it('answers a preflight with an explicit header list, and puts Access-Control-Allow-Origin on errors too', async () => {
    await setup();
    const pre = await fetch(`${app.url}/v1/subscribers/ann`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,content-type,x-is-sandbox,x-platform,x-version,x-custom' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const allowed = (pre.headers.get('access-control-allow-headers') ?? '').split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-is-sandbox', 'x-platform', 'x-version', 'x-custom']));
    expect(allowed).not.toContain('*');
    const refused = await app.call('GET', '/v1/subscribers/ann', undefined, { origin: 'http://localhost:5173' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('percent-decodes app user ids in paths', async () => {
    await setup();
    const id = '$RCAnonymousID:0a1b2c';
    expect((await v1('GET', `/v1/subscribers/${encodeURIComponent(id)}`)).body.subscriber.original_app_user_id).toBe(id);
    expect((await app.call('GET', `/sim/customers/${encodeURIComponent(id)}?project_id=proj_sim`)).status).toBe(200);
  });

  it.each([
    ['malformed JSON', 'POST', '/v1/receipts', '{"app_user_id":', 400, 7226, 'body'],
    ['an empty app user id', 'POST', '/v1/receipts', { app_user_id: ' ', fetch_token: 't', product_id: 'monthly' }, 400, 7220, 'app_user_id'],
    ['a reserved app user id', 'GET', '/v1/subscribers/null', undefined, 400, 7220, 'app_user_id'],
    ['an app user id no receiver can store (U+0000)', 'GET', '/v1/subscribers/a%00b', undefined, 400, 7220, 'app_user_id'],
    ['a new app user id with a lone surrogate', 'POST', '/v1/subscribers/identify', '{"app_user_id":"ann","new_app_user_id":"x\\ud800"}', 400, 7220, 'new_app_user_id'],
    ['an unknown product', 'POST', '/v1/receipts', { app_user_id: 'ann', fetch_token: 't', product_id: 'nope' }, 404, 7226, 'product_id'],
    ['no fetch token', 'POST', '/v1/receipts', { app_user_id: 'ann', product_id: 'monthly' }, 400, 7226, 'fetch_token'],
    ['a bad grant duration', 'POST', '/v1/subscribers/ann/entitlements/pro/promotional', { duration: 'forever' }, 400, 7226, 'duration'],
    ['an unknown entitlement', 'POST', '/v1/subscribers/ann/entitlements/nope/promotional', { duration: 'weekly' }, 404, 7226, 'entitlement_identifier'],
  ])('answers %s with {code, message} naming the field, and changes nothing', async (_what, method, path, body, status, code, field) => {
    await setup();
    const before = app.sim.world();
    const res = await v1(method, path, body, method === 'GET' || path.includes('promotional') ? 'sk_x' : 'test_x');
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.message).toMatch(new RegExp(`^${field}\\b`));
    expect(app.sim.world()).toBe(before);
  });

  it('reads a known customer without changing the world; an app asking (X-Platform) moves its last_seen', async () => {
    await setup();
    await v1('GET', '/v1/subscribers/ann');
    app.sim.advanceBy('PT1H');
    const before = app.sim.world();
    expect((await v1('GET', '/v1/subscribers/ann')).body.subscriber).toMatchObject({ first_seen: '2026-01-01T00:00:00Z', last_seen: '2026-01-01T00:00:00Z' });
    expect((await v1('GET', '/v1/subscribers/ann', undefined, 'sk_x')).status).toBe(200);
    expect(app.sim.world()).toBe(before);
    const asked = await v1('GET', '/v1/subscribers/ann', undefined, 'test_dev', { 'x-platform': 'ios' });
    expect(asked.body.subscriber).toMatchObject({ first_seen: '2026-01-01T00:00:00Z', last_seen: '2026-01-01T01:00:00Z' });
  });

  it('refuses every attribute of a body with one bad key (7263, attribute_errors), saving none', async () => {
    await setup();
    await v1('GET', '/v1/subscribers/ann');
    const res = await v1('POST', '/v1/subscribers/ann/attributes', { attributes: { tier: { value: 'gold' }, $email: { value: 'nope' }, 'has space': { value: 'x' }, $madeUp: { value: 'x' } } });
    expect(res).toMatchObject({ status: 400, body: { code: 7263 } });
    expect(res.body.attribute_errors.map((e: { key_name: string }) => e.key_name)).toEqual(['$email', 'has space', '$madeUp']);
    expect((await v1('GET', '/v1/subscribers/ann', undefined, 'sk_x')).body.subscriber.subscriber_attributes).toEqual({});
  });

  it('keeps the newer of two attribute changes by updated_at_ms, and deletes on null or an empty string', async () => {
    await setup();
    const set = (attributes: object) => v1('POST', '/v1/subscribers/ann/attributes', { attributes });
    await set({ tier: { value: 'gold', updated_at_ms: 2000 }, plan: { value: 'x' } });
    await set({ tier: { value: 'silver', updated_at_ms: 1000 } });
    const attrs = async () => (await v1('GET', '/v1/subscribers/ann', undefined, 'sk_x')).body.subscriber.subscriber_attributes;
    expect((await attrs()).tier).toEqual({ value: 'gold', updated_at_ms: 2000 });
    await set({ tier: { value: '', updated_at_ms: 3000 }, plan: { value: null } });
    expect(await attrs()).toEqual({});
  });
});

describe('API v1: purchases through the Test Store', () => {
  it('buys in TEST_STORE, sandbox; posting the same token again buys nothing; another customer is refused (7102)', async () => {
    await setup();
    const post = (user: string, token: string) => v1('POST', '/v1/receipts', { app_user_id: user, fetch_token: token, product_id: 'annual', presented_offering_identifier: 'default' });
    const bought = await post('ann', 'tok');
    expect(bought.body.subscriber.entitlements.pro).toMatchObject({ product_identifier: 'annual', expires_date: '2026-01-01T01:00:00Z' });
    expect(last()).toMatchObject({ type: 'INITIAL_PURCHASE', store: 'TEST_STORE', environment: 'SANDBOX', presented_offering_id: 'default', app_user_id: 'ann' });
    const count = app.sim.events().length;
    expect((await post('ann', 'tok')).status).toBe(200);
    expect(app.sim.events()).toHaveLength(count);
    expect(await post('bob', 'tok')).toMatchObject({ status: 409, body: { code: 7102 } });
    expect(await post('ann', 'tok2')).toMatchObject({ status: 409, body: { code: 7772 } });
  });

  it('starts the free trial of a product the customer never had, on the Test Store\'s minutes', async () => {
    await setup();
    await v1('POST', '/v1/receipts', { app_user_id: 'ann', fetch_token: 'tok', product_id: 'monthly' });
    expect(last()).toMatchObject({ type: 'INITIAL_PURCHASE', period_type: 'TRIAL', expiration_at_ms: NOW + 5 * MIN });
  });

  it('renews every 5 minutes (a month), at most 5 times, then cancels and expires: the entitlement ends', async () => {
    await setup();
    await app.call('POST', '/sim/products', { id: 'plain', type: 'subscription', period: 'P1M', entitlement_ids: ['pro'] });
    await v1('POST', '/v1/receipts', { app_user_id: 'ann', fetch_token: 'tok', product_id: 'plain' });
    await app.call('POST', '/sim/clock/advance', { by: 'PT1H' });
    const events = app.sim.events().map((e) => e.event as Record<string, any>).filter((e) => e.app_user_id === 'ann');
    expect(events.map((e) => `${e.type} ${(e.event_timestamp_ms - NOW) / MIN}`)).toEqual([
      'INITIAL_PURCHASE 0', 'RENEWAL 5', 'RENEWAL 10', 'RENEWAL 15', 'RENEWAL 20', 'RENEWAL 25', 'CANCELLATION 25', 'EXPIRATION 30',
    ]);
    const info = (await v1('GET', '/v1/subscribers/ann')).body.subscriber;
    expect(info.entitlements.pro.expires_date).toBe('2026-01-01T00:30:00Z');
    expect(info.subscriptions.plain.unsubscribe_detected_at).toBe('2026-01-01T00:25:00Z');
  });

  it('keeps /sim purchases of the Test Store on their products\' periods', async () => {
    await setup();
    await app.call('POST', '/sim/purchases', { project_id: 'proj_sim', customer_id: 'ann', product_id: 'annual' });
    expect(last()).toMatchObject({ store: 'TEST_STORE', expiration_at_ms: Date.UTC(2027, 0, 1) });
  });

  it('buys for a server through the secret key in the X-Platform\'s store', async () => {
    await setup();
    expect(await v1('POST', '/v1/receipts', { app_user_id: 'ann', fetch_token: 'gp', product_id: 'annual' }, 'sk_x')).toMatchObject({ status: 400, body: { code: 7000 } });
    await v1('POST', '/v1/receipts', { app_user_id: 'ann', fetch_token: 'gp', product_id: 'annual' }, 'sk_x', { 'x-platform': 'android' });
    expect(last()).toMatchObject({ type: 'INITIAL_PURCHASE', store: 'PLAY_STORE', expiration_at_ms: Date.UTC(2027, 0, 1) });
  });
});

describe('API v1: identify and grants', () => {
  it('identify: 201 for a new id (an anonymous user\'s purchases move with one TRANSFER), 200 for a known one', async () => {
    await setup();
    const anon = '$RCAnonymousID:abc';
    await app.call('POST', '/sim/purchases', { project_id: 'proj_sim', customer_id: anon, product_id: 'annual' });
    const created = await v1('POST', '/v1/subscribers/identify', { app_user_id: anon, new_app_user_id: 'ann' });
    expect(created.status).toBe(201);
    expect(created.body.subscriber.subscriptions.annual).toBeDefined();
    expect(last()).toMatchObject({ type: 'TRANSFER', transferred_from: [anon], transferred_to: ['ann'] });
    expect((await v1('POST', '/v1/subscribers/identify', { app_user_id: 'someone', new_app_user_id: 'ann' })).status).toBe(200);
    // A known (not anonymous) user's purchases stay with it.
    await app.call('POST', '/sim/purchases', { project_id: 'proj_sim', customer_id: 'bob', product_id: 'annual' });
    await v1('POST', '/v1/subscribers/identify', { app_user_id: 'bob', new_app_user_id: 'bobby' });
    expect((await v1('GET', '/v1/subscribers/bobby')).body.subscriber.subscriptions).toEqual({});
  });

  it('sends a grant of either API as the promotional NON_RENEWING_PURCHASE, and a revoke as its CANCELLATION', async () => {
    await setup();
    await v1('POST', '/v1/subscribers/ann/entitlements/pro/promotional', { duration: 'monthly', start_time_ms: NOW - 86_400_000 }, 'sk_x');
    expect(last()).toMatchObject({
      type: 'NON_RENEWING_PURCHASE', store: 'PROMOTIONAL', period_type: 'PROMOTIONAL', environment: 'PRODUCTION', product_id: 'rc_promo_pro_monthly',
      entitlement_ids: ['pro'], price: 0, purchased_at_ms: NOW, expiration_at_ms: Date.UTC(2026, 0, 31),
    });
    await v1('POST', '/v1/subscribers/ann/entitlements/pro/revoke_promotionals', undefined, 'sk_x');
    expect(last()).toMatchObject({ type: 'CANCELLATION', store: 'PROMOTIONAL', cancel_reason: 'CUSTOMER_SUPPORT', product_id: 'rc_promo_pro_monthly' });
    expect((await v1('GET', '/v1/subscribers/ann')).body.subscriber.entitlements).toEqual({});
    const entitlement = (await app.call('GET', '/v2/projects/proj_sim/entitlements')).body.items[0].id;
    await app.call('POST', '/v2/projects/proj_sim/customers/ann/actions/grant_entitlement', { entitlement_id: entitlement, expires_at: NOW + 86_400_000 });
    expect(last()).toMatchObject({ type: 'NON_RENEWING_PURCHASE', store: 'PROMOTIONAL', product_id: 'rc_promo_pro_custom', expiration_at_ms: NOW + 86_400_000 });
    expect(types().filter((t) => t === 'NON_RENEWING_PURCHASE')).toHaveLength(2);
  });

  it('a lifetime grant has no end: an entitlement with expires_date null', async () => {
    await setup();
    await v1('POST', '/v1/subscribers/ann/entitlements/pro/promotional', { duration: 'lifetime' }, 'sk_x');
    expect(last()).toMatchObject({ expiration_at_ms: null, product_id: 'rc_promo_pro_lifetime' });
    await app.call('POST', '/sim/clock/advance', { by: 'P10Y' });
    expect((await v1('GET', '/v1/subscribers/ann')).body.subscriber.entitlements.pro).toMatchObject({ expires_date: null, product_identifier: 'rc_promo_pro_lifetime' });
  });
});
