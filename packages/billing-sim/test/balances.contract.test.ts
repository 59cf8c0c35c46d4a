import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { P, startApp, type TestApp } from './helpers.js';

let app: TestApp;
const TX = `${P}/customers/u1/virtual_currencies/transactions`;
const balances = async (customer = 'u1', q = '') => (await app.call('GET', `${P}/customers/${customer}/virtual_currencies${q}`)).body;

beforeEach(async () => {
  app = await startApp();
  await app.call('POST', `${P}/virtual_currencies`, { code: 'GLD', name: 'Gold' });
  await app.call('POST', `${P}/virtual_currencies`, { code: 'SLV', name: 'Silver' });
  await app.call('POST', TX, { adjustments: { GLD: 100, SLV: 40 } });
});
afterEach(async () => {
  await app.close();
});

describe('GET .../customers/{customer_id}/virtual_currencies', () => {
  it('lists balances as a list of virtual_currency_balance', async () => {
    expect(await balances()).toEqual({
      object: 'list',
      items: [
        { object: 'virtual_currency_balance', currency_code: 'GLD', balance: 100, name: 'Gold' },
        { object: 'virtual_currency_balance', currency_code: 'SLV', balance: 40, name: 'Silver' },
      ],
      next_page: null,
      url: `${P}/customers/u1/virtual_currencies`,
    });
  });
  it('includes zero balances only with include_empty_balances=true', async () => {
    await app.call('POST', TX, { adjustments: { SLV: -40 } });
    expect((await balances()).items.map((b: { currency_code: string }) => b.currency_code)).toEqual(['GLD']);
    expect((await balances('u1', '?include_empty_balances=true')).items).toHaveLength(2);
  });
  it('answers 404 for a customer never seen', async () => {
    expect((await app.call('GET', `${P}/customers/ghost/virtual_currencies`)).status).toBe(404);
  });
});

describe('POST .../virtual_currencies/transactions', () => {
  it('spends and deposits across currencies in one request and returns the changed balances', async () => {
    const res = await app.call('POST', TX, { adjustments: { GLD: -50, SLV: 200 }, reference: 'convert' });
    expect(res.status).toBe(200);
    expect(res.body.items.map((b: { currency_code: string; balance: number }) => [b.currency_code, b.balance])).toEqual([['GLD', 50], ['SLV', 240]]);
  });
  it('answers 422 unprocessable_entity_error and changes nothing when any balance would go below 0', async () => {
    const res = await app.call('POST', TX, { adjustments: { SLV: 10, GLD: -101 } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      object: 'error',
      type: 'unprocessable_entity_error',
      param: 'adjustments',
      message: "Customer's balance is not enough to perform the transaction.",
      retryable: false,
      doc_url: 'https://errors.rev.cat/unprocessable-entity-error',
    });
    expect((await balances()).items.map((b: { balance: number }) => b.balance)).toEqual([100, 40]);
  });
  it('answers 422 when a balance would pass 2,000,000,000', async () => {
    const res = await app.call('POST', TX, { adjustments: { GLD: 2_000_000_000 } });
    expect(res.status).toBe(422);
    expect((await balances()).items[0].balance).toBe(100);
  });
  it('answers 404 for an unknown currency and changes nothing', async () => {
    const res = await app.call('POST', TX, { adjustments: { GLD: -1, XYZ: 5 } });
    expect(res.status).toBe(404);
    expect(res.body.param).toBe('adjustments.XYZ');
    expect((await balances()).items[0].balance).toBe(100);
  });
  it.each([
    [{}, 'adjustments'],
    [{ adjustments: {} }, 'adjustments'],
    [{ adjustments: { GLD: 1.5 } }, 'adjustments.GLD'],
    [{ adjustments: { GLD: '5' } }, 'adjustments.GLD'],
    [{ adjustments: { GLD: 1 }, extra: true }, 'extra'],
  ])('answers 400 naming the param for %j', async (body, param) => {
    const res = await app.call('POST', TX, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'parameter_error', param });
  });
  it('creates a customer on its first successful transaction only', async () => {
    expect((await app.call('POST', `${P}/customers/u2/virtual_currencies/transactions`, { adjustments: { GLD: -1 } })).status).toBe(422);
    expect((await app.call('GET', `${P}/customers/u2/virtual_currencies`)).status).toBe(404);
    expect((await app.call('POST', `${P}/customers/u2/virtual_currencies/transactions`, { adjustments: { GLD: 3 } })).status).toBe(200);
    expect((await balances('u2')).items[0].balance).toBe(3);
  });
  it('runs a request once per Idempotency-Key and replays the same result', async () => {
    const headers = { 'Idempotency-Key': 'k1' };
    const first = await app.call('POST', TX, { adjustments: { GLD: -10 } }, headers);
    const again = await app.call('POST', TX, { adjustments: { GLD: -10 } }, headers);
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect((await balances()).items[0].balance).toBe(90);
  });
  it('answers 409 idempotency_error for a key reused with a different body', async () => {
    await app.call('POST', TX, { adjustments: { GLD: -10 } }, { 'Idempotency-Key': 'k2' });
    const res = await app.call('POST', TX, { adjustments: { GLD: -20 } }, { 'Idempotency-Key': 'k2' });
    expect(res.status).toBe(409);
    expect(res.body.type).toBe('idempotency_error');
    expect((await balances()).items[0].balance).toBe(90);
  });
  it('sends no webhook for an API adjustment', async () => {
    await app.call('POST', TX, { adjustments: { GLD: 5 } });
    expect(app.sim.events()).toEqual([]);
  });
  it('reports rate-limit usage in headers', async () => {
    const res = await app.call('POST', TX, { adjustments: { GLD: 1 } });
    expect(res.headers.get('RevenueCat-Rate-Limit-Current-Limit')).toBe('480');
    expect(Number(res.headers.get('RevenueCat-Rate-Limit-Current-Usage'))).toBeGreaterThan(0);
  });
});

describe('POST .../virtual_currencies/update_balance', () => {
  it('applies the adjustments without a transaction, all or nothing', async () => {
    const res = await app.call('POST', `${P}/customers/u1/virtual_currencies/update_balance`, { adjustments: { GLD: -30, SLV: 5 } });
    expect(res.status).toBe(200);
    expect(res.body.items.map((b: { balance: number }) => b.balance)).toEqual([70, 45]);
    expect((await app.call('POST', `${P}/customers/u1/virtual_currencies/update_balance`, { adjustments: { GLD: -71 } })).status).toBe(422);
  });
});

describe('GET .../customers/{customer_id}', () => {
  it("answers the official Customer object (no SDK: app version and platform are null)", async () => {
    const res = await app.call('GET', `${P}/customers/u1`);
    expect(res.body).toEqual({
      object: 'customer', id: 'u1', project_id: 'proj1', first_seen_at: app.sim.now(), last_seen_at: app.sim.now(),
      last_seen_app_version: null, last_seen_country: null, last_seen_platform: null, last_seen_platform_version: null,
      active_entitlements: { object: 'list', items: [], next_page: null, url: `${P}/customers/u1/active_entitlements` },
    });
  });
  it('answers 404 for an unknown customer', async () => {
    expect((await app.call('GET', `${P}/customers/nobody`)).status).toBe(404);
  });
});

describe('GET /sim/customers/{customer_id}', () => {
  it("shows the simulator's view: subscriptions and balances", async () => {
    const res = await app.call('GET', '/sim/customers/u1?project_id=proj1');
    expect(res.body).toMatchObject({ object: 'customer', id: 'u1', project_id: 'proj1', subscriptions: [] });
    expect(res.body.virtual_currencies.map((b: { balance: number }) => b.balance)).toEqual([100, 40]);
  });
  it('answers 404 for an unknown customer', async () => {
    expect((await app.call('GET', '/sim/customers/nobody?project_id=proj1')).status).toBe(404);
  });
});
