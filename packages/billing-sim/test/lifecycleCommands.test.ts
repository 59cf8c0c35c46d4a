// The lifecycle commands beyond purchase and cancel: pause and resume, extensions, refund reversals,
// transfers, temporary entitlement grants, price-increase cancellations and sandbox purchases, each
// driven over the /sim control API and checked against the billing service's documented shapes.
import { parseWebhook } from '@tenure/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hybridSetup, startApp, type TestApp } from './helpers.js';

const T0 = Date.UTC(2026, 0, 1);
let app: TestApp;
let mark = 0;
beforeEach(async () => {
  app = await startApp({ now: T0 });
  await hybridSetup(app);
  mark = 0;
});
afterEach(async () => {
  await app.close();
});

/** Events since the previous call, currency transactions left out unless asked for. */
const fresh = (withCredits = false) => {
  const all = app.sim.events();
  const out = all.slice(mark).map((e) => e.event as Record<string, unknown> & { type: string });
  mark = all.length;
  return withCredits ? out : out.filter((e) => e.type !== 'VIRTUAL_CURRENCY_TRANSACTION');
};
const buy = async (product_id: string, extra: Record<string, unknown> = {}, customer_id = 'u1') => {
  const res = await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id, product_id, ...extra });
  expect(res.status).toBe(201);
  return res.body.subscription_id as string;
};
const op = (id: string, what: string, body: unknown = {}) => app.call('POST', `/sim/subscriptions/${id}/${what}`, body);
const advance = (by: string) => app.call('POST', '/sim/clock/advance', { by });

/** The documented fields of a subscription lifecycle event (revenuecat.md §1.4). */
const LIFECYCLE_FIELDS = [
  'id', 'type', 'app_id', 'event_timestamp_ms', 'app_user_id', 'original_app_user_id', 'aliases', 'subscriber_attributes',
  'product_id', 'entitlement_ids', 'period_type', 'purchased_at_ms', 'expiration_at_ms', 'store', 'environment',
  'presented_offering_id', 'price', 'currency', 'price_in_purchased_currency', 'tax_percentage', 'commission_percentage',
  'takehome_percentage', 'transaction_id', 'original_transaction_id', 'is_family_share', 'country_code', 'offer_code', 'renewal_number',
];

describe('pause and resume', () => {
  it('sends SUBSCRIPTION_PAUSED with auto_resume_at_ms now, EXPIRATION(SUBSCRIPTION_PAUSED) at the period end and RENEWAL at the resume', async () => {
    const id = await buy('monthly');
    fresh();
    const res = await op(id, 'pause', { resume_after: 'P1M' });
    expect(res.body).toMatchObject({ status: 'active', auto_resume_at: Date.UTC(2026, 2, 1) });
    expect(fresh()).toMatchObject([
      { type: 'SUBSCRIPTION_PAUSED', auto_resume_at_ms: Date.UTC(2026, 2, 1), expiration_at_ms: Date.UTC(2026, 1, 1), event_timestamp_ms: T0 },
    ]);
    await advance('P1M');
    expect(fresh()).toMatchObject([{ type: 'EXPIRATION', expiration_reason: 'SUBSCRIPTION_PAUSED', event_timestamp_ms: Date.UTC(2026, 1, 1) }]);
    expect((await app.call('GET', `/sim/subscriptions/${id}`)).body.status).toBe('paused');
    await advance('P1M');
    expect(fresh()).toMatchObject([
      { type: 'RENEWAL', is_trial_conversion: false, event_timestamp_ms: Date.UTC(2026, 2, 1), purchased_at_ms: Date.UTC(2026, 2, 1), expiration_at_ms: Date.UTC(2026, 3, 1), renewal_number: 2 },
    ]);
    expect((await app.call('GET', `/sim/subscriptions/${id}`)).body).toMatchObject({ status: 'active', auto_resume_at: null });
  });
  it('grants nothing while paused and the renewal grant on resume', async () => {
    const id = await buy('monthly');
    await op(id, 'pause', { resume_after: 'P1W' });
    fresh(true);
    await advance('P1M');
    await advance('P7D');
    expect(fresh(true).map((e) => e.type)).toEqual(['VIRTUAL_CURRENCY_TRANSACTION', 'EXPIRATION', 'RENEWAL', 'VIRTUAL_CURRENCY_TRANSACTION']);
  });
  it('resume sends RENEWAL at once and cycles count from the resume', async () => {
    const id = await buy('monthly');
    await op(id, 'pause', { resume_after: 'P3M' });
    await advance('P1M');
    await advance('P10D');
    fresh();
    expect((await op(id, 'resume')).body.status).toBe('active');
    expect(fresh()).toMatchObject([{ type: 'RENEWAL', purchased_at_ms: Date.UTC(2026, 1, 11), expiration_at_ms: Date.UTC(2026, 2, 11) }]);
    await advance('P3M');
    expect(fresh().filter((e) => e.type === 'RENEWAL').map((e) => e.event_timestamp_ms)).toEqual([Date.UTC(2026, 2, 11), Date.UTC(2026, 3, 11), Date.UTC(2026, 4, 11)]);
  });
  it('refuses to pause a trial, a cancelled or an already pausing subscription, and to resume one that is not paused (422)', async () => {
    const trial = await buy('monthly', { trial: true });
    expect((await op(trial, 'pause')).status).toBe(422);
    const id = await buy('annual');
    expect((await op(id, 'resume')).status).toBe(422);
    await op(id, 'pause');
    expect((await op(id, 'pause')).status).toBe(422);
    const other = await buy('monthly', {}, 'u2');
    await op(other, 'cancel');
    expect((await op(other, 'pause')).body).toMatchObject({ type: 'unprocessable_entity_error', param: 'subscription_id' });
  });
  it('an extension moves a planned pause with the period end, keeping its length', async () => {
    const id = await buy('monthly');
    await op(id, 'pause', { resume_after: 'P1W' });
    await op(id, 'extend', { by: 'P1W' });
    expect((await app.call('GET', `/sim/subscriptions/${id}`)).body).toMatchObject({ current_period_ends_at: Date.UTC(2026, 1, 8), auto_resume_at: Date.UTC(2026, 1, 15) });
    fresh();
    await advance('P1M');
    await advance('P14D');
    expect(fresh().map((e) => [e.type, e.event_timestamp_ms])).toEqual([['EXPIRATION', Date.UTC(2026, 1, 8)], ['RENEWAL', Date.UTC(2026, 1, 15)]]);
  });
  it('answers 400 naming resume_after for a bad duration', async () => {
    const id = await buy('monthly');
    fresh();
    expect((await op(id, 'pause', { resume_after: 'soon' })).body).toMatchObject({ type: 'parameter_error', param: 'resume_after' });
    expect(fresh()).toEqual([]);
  });
});

describe('grace periods', () => {
  it('BILLING_ISSUE carries grace_period_expiration_at_ms; recovery inside grace sends RENEWAL, none sends EXPIRATION(BILLING_ERROR) at the grace end', async () => {
    const kept = await buy('monthly');
    const lost = await buy('annual', {}, 'u2');
    await op(kept, 'billing_issue', { grace_period: 'P16D' });
    await op(lost, 'billing_issue', { grace_period: 'P16D' });
    expect(fresh().filter((e) => e.type === 'BILLING_ISSUE').map((e) => e.grace_period_expiration_at_ms)).toEqual([Date.UTC(2026, 0, 17), Date.UTC(2026, 0, 17)]);
    await advance('P3D');
    await op(kept, 'recover');
    expect(fresh()).toMatchObject([{ type: 'RENEWAL', app_user_id: 'u1' }]);
    await advance('P13D');
    expect(fresh()).toMatchObject([{ type: 'EXPIRATION', app_user_id: 'u2', expiration_reason: 'BILLING_ERROR', event_timestamp_ms: Date.UTC(2026, 0, 17) }]);
  });
});

describe('extensions', () => {
  it('sends SUBSCRIPTION_EXTENDED with the moved expiration_at_ms and renews at the new end', async () => {
    const id = await buy('monthly');
    fresh();
    expect((await op(id, 'extend', { by: 'P10D' })).body.current_period_ends_at).toBe(Date.UTC(2026, 1, 11));
    expect(fresh()).toMatchObject([{ type: 'SUBSCRIPTION_EXTENDED', expiration_at_ms: Date.UTC(2026, 1, 11), price: 9.99 }]);
    await advance('P1M');
    expect(fresh()).toEqual([]);
    await advance('P10D');
    expect(fresh()).toMatchObject([{ type: 'RENEWAL', expiration_at_ms: Date.UTC(2026, 2, 11) }]);
  });
  it('refuses to extend an expired subscription (422) and a bad duration (400 naming by)', async () => {
    const id = await buy('monthly');
    expect((await op(id, 'extend', {})).body).toMatchObject({ type: 'parameter_error', param: 'by' });
    await op(id, 'expire');
    expect((await op(id, 'extend', { by: 'P1D' })).status).toBe(422);
  });
});

describe('refunds and their reversal', () => {
  it('a refund is CANCELLATION(CUSTOMER_SUPPORT) with negative prices; REFUND_REVERSED gives access back until the refunded period ends', async () => {
    const id = await buy('monthly');
    await advance('P3D');
    fresh();
    await op(id, 'refund');
    expect(fresh()).toMatchObject([
      { type: 'CANCELLATION', cancel_reason: 'CUSTOMER_SUPPORT', price: -9.99, price_in_purchased_currency: -9.99 },
      { type: 'EXPIRATION', expiration_reason: 'CUSTOMER_SUPPORT' },
    ]);
    await advance('P1D');
    const res = await op(id, 'reverse_refund');
    expect(res.body).toMatchObject({ status: 'active', auto_renew: true, current_period_ends_at: Date.UTC(2026, 1, 1), expired_at: null });
    expect(fresh()).toMatchObject([{ type: 'REFUND_REVERSED', price: 9.99, expiration_at_ms: Date.UTC(2026, 1, 1), transaction_id: res.body.transaction_id }]);
    await advance('P1M');
    expect(fresh().map((e) => e.type)).toEqual(['RENEWAL']);
  });
  it('a reversal after the refunded period ended sends REFUND_REVERSED and leaves the subscription expired', async () => {
    const id = await buy('monthly');
    await op(id, 'refund');
    await advance('P2M');
    fresh();
    expect((await op(id, 'reverse_refund')).body.status).toBe('expired');
    expect(fresh().map((e) => e.type)).toEqual(['REFUND_REVERSED']);
  });
  it('refuses to reverse what was not refunded, or twice (422)', async () => {
    const id = await buy('monthly');
    expect((await op(id, 'reverse_refund')).status).toBe(422);
    await op(id, 'refund');
    expect((await op(id, 'reverse_refund')).status).toBe(200);
    await op(id, 'expire');
    expect((await op(id, 'reverse_refund')).status).toBe(422);
  });
});

describe('price-increase cancellations', () => {
  it('CANCELLATION(PRICE_INCREASE) now and EXPIRATION(PRICE_INCREASE) at the period end', async () => {
    const id = await buy('monthly');
    fresh();
    await op(id, 'cancel', { reason: 'PRICE_INCREASE' });
    expect(fresh()).toMatchObject([{ type: 'CANCELLATION', cancel_reason: 'PRICE_INCREASE', price: 9.99 }]);
    await advance('P1M');
    expect(fresh()).toMatchObject([{ type: 'EXPIRATION', expiration_reason: 'PRICE_INCREASE' }]);
  });
});

describe('transfers', () => {
  it("sends one TRANSFER (transferred_from, transferred_to, no app_user_id) and later events name the new owner; credits stay", async () => {
    const id = await buy('annual');
    await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'pack_500' });
    fresh();
    const res = await app.call('POST', '/sim/customers/u1/transfer', { project_id: 'proj1', target_customer_id: 'u2' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'sim.transfer', customer_id: 'u1', target_customer_id: 'u2', subscription_ids: [id] });
    const [transfer, ...rest] = fresh();
    expect(rest).toEqual([]);
    expect(transfer).toMatchObject({ type: 'TRANSFER', transferred_from: ['u1'], transferred_to: ['u2'], environment: 'SANDBOX', store: 'TEST_STORE' });
    expect(Object.keys(transfer!).sort()).toEqual(['app_id', 'environment', 'event_timestamp_ms', 'id', 'store', 'transferred_from', 'transferred_to', 'type']);
    expect((await app.call('GET', `/sim/subscriptions/${id}`)).body.customer_id).toBe('u2');
    await op(id, 'cancel');
    expect(fresh()).toMatchObject([{ type: 'CANCELLATION', app_user_id: 'u2' }]);
    const u1 = await app.call('GET', '/v2/projects/proj1/customers/u1/virtual_currencies');
    expect(u1.body.items).toMatchObject([{ currency_code: 'CRD', balance: 2000 }]);
  });
  it('refuses a transfer to itself (400 naming target_customer_id), of an unknown customer (404) and of nothing (422)', async () => {
    await buy('monthly');
    expect((await app.call('POST', '/sim/customers/u1/transfer', { project_id: 'proj1', target_customer_id: 'u1' })).body).toMatchObject({ param: 'target_customer_id' });
    expect((await app.call('POST', '/sim/customers/nobody/transfer', { project_id: 'proj1', target_customer_id: 'u2' })).status).toBe(404);
    expect((await app.call('POST', '/sim/customers/u1/transfer', { project_id: 'proj1', target_customer_id: 'u2' })).status).toBe(200);
    expect((await app.call('POST', '/sim/customers/u1/transfer', { project_id: 'proj1', target_customer_id: 'u2' })).status).toBe(422);
    expect((await app.call('POST', '/sim/customers/u1/transfer', { project_id: 'proj1' })).body).toMatchObject({ param: 'target_customer_id' });
  });
});

describe('temporary entitlement grants', () => {
  const grant = (body: Record<string, unknown> = {}) =>
    app.call('POST', '/sim/temporary_grants', { project_id: 'proj1', customer_id: 'u1', product_id: 'monthly', duration: 'PT6H', ...body });
  it('sends TEMPORARY_ENTITLEMENT_GRANT and no credits; a purchase validates it with INITIAL_PURCHASE of the same transaction', async () => {
    const res = await grant();
    expect(res.status).toBe(201);
    const events = fresh(true);
    expect(events).toMatchObject([{ type: 'TEMPORARY_ENTITLEMENT_GRANT', expiration_at_ms: T0 + 6 * 3_600_000, transaction_id: res.body.transaction_id }]);
    await advance('PT1H');
    const id = await buy('monthly');
    expect(id).toBe(res.body.subscription_id);
    expect(fresh(true)).toMatchObject([
      { type: 'INITIAL_PURCHASE', transaction_id: res.body.transaction_id, original_transaction_id: res.body.transaction_id, expiration_at_ms: Date.UTC(2026, 1, 1, 1) },
      { type: 'VIRTUAL_CURRENCY_TRANSACTION' },
    ]);
  });
  it('ends with EXPIRATION of the same transaction when no purchase validates it', async () => {
    const res = await grant();
    fresh();
    await advance('P1D');
    expect(fresh()).toMatchObject([{ type: 'EXPIRATION', transaction_id: res.body.transaction_id, event_timestamp_ms: T0 + 6 * 3_600_000 }]);
  });
  it('refuses a grant longer than 24 hours (400 naming duration) or of an unknown product (404)', async () => {
    expect((await grant({ duration: 'P2D' })).body).toMatchObject({ type: 'parameter_error', param: 'duration' });
    expect((await grant({ product_id: 'nope' })).status).toBe(404);
    expect(fresh()).toEqual([]);
  });
});

describe('sandbox and production purchases', () => {
  it('puts the purchase environment and store on every event of that subscription, credit transactions included', async () => {
    const prod = await buy('monthly', { environment: 'PRODUCTION', store: 'PLAY_STORE' });
    const sandbox = await buy('annual', { environment: 'SANDBOX' }, 'u2');
    await op(prod, 'cancel');
    await op(sandbox, 'refund');
    await advance('P1M');
    for (const body of app.sim.events()) {
      const e = body.event as Record<string, unknown>;
      const env = e['app_user_id'] === 'u1' ? 'PRODUCTION' : 'SANDBOX';
      if (e['type'] === 'VIRTUAL_CURRENCY_TRANSACTION') {
        expect(e['purchase_environment']).toBe(env);
      } else {
        expect(e).toMatchObject({ environment: env, store: e['app_user_id'] === 'u1' ? 'PLAY_STORE' : 'TEST_STORE' });
      }
    }
    expect((await app.call('POST', '/sim/purchases', { customer_id: 'u3', product_id: 'monthly', environment: 'STAGING' })).body).toMatchObject({ param: 'environment' });
  });
});

describe('every lifecycle event', () => {
  it('carries the documented fields (price, currency, takehome_percentage, store, environment…) and parses with the core', async () => {
    const a = await buy('monthly');
    await op(a, 'pause');
    await op(a, 'extend', { by: 'P1D' });
    await advance('P2M2D'); // paused from Feb 2, resumed on Mar 2 (the extension moved the pause)
    await op(a, 'refund');
    await op(a, 'reverse_refund');
    await app.call('POST', '/sim/temporary_grants', { project_id: 'proj1', customer_id: 'u3', product_id: 'annual' });
    await app.call('POST', '/sim/customers/u1/transfer', { project_id: 'proj1', target_customer_id: 'u9' });
    const types = new Set<string>();
    for (const body of app.sim.events()) {
      const e = body.event as Record<string, unknown> & { type: string };
      types.add(e.type);
      expect(parseWebhook(JSON.parse(JSON.stringify(body))).ok, e.type).toBe(true);
      if (e.type === 'VIRTUAL_CURRENCY_TRANSACTION' || e.type === 'TRANSFER') continue;
      expect(Object.keys(e)).toEqual(expect.arrayContaining(LIFECYCLE_FIELDS));
      expect(e).toMatchObject({ currency: 'USD', takehome_percentage: 0.85, commission_percentage: 0.15, tax_percentage: 0 });
    }
    expect([...types].sort()).toEqual([
      'CANCELLATION', 'EXPIRATION', 'INITIAL_PURCHASE', 'REFUND_REVERSED', 'RENEWAL', 'SUBSCRIPTION_EXTENDED', 'SUBSCRIPTION_PAUSED',
      'TEMPORARY_ENTITLEMENT_GRANT', 'TRANSFER', 'VIRTUAL_CURRENCY_TRANSACTION',
    ]);
  });
});
