import { parseWebhook } from '@tenure/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBillingSimulator, createRequestHandler } from '../src/index.js';
import { hybridSetup, startApp, type TestApp } from './helpers.js';

let app: TestApp;
let mark = 0;
beforeEach(async () => {
  app = await startApp({ now: Date.UTC(2026, 0, 1) });
  await hybridSetup(app);
  mark = 0;
});
afterEach(async () => {
  await app.close();
});

/** Events since the previous call. */
const fresh = () => {
  const all = app.sim.events();
  const out = all.slice(mark);
  mark = all.length;
  return out.map((e) => e.event);
};
const types = () => fresh().map((e) => e.type);
const buy = async (product_id: string, trial = false) =>
  (await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id, trial })).body.subscription_id as string;
const op = (id: string, what: string, body: unknown = {}) => app.call('POST', `/sim/subscriptions/${id}/${what}`, body);
const advance = (by: string) => app.call('POST', '/sim/clock/advance', { by });

describe('lifecycle webhooks', () => {
  it('sends INITIAL_PURCHASE with period_type TRIAL for a trial and NORMAL otherwise', async () => {
    await buy('monthly', true);
    expect(fresh()[0]).toMatchObject({ type: 'INITIAL_PURCHASE', period_type: 'TRIAL', price: 0 });
    await buy('annual');
    expect(fresh()[0]).toMatchObject({ type: 'INITIAL_PURCHASE', period_type: 'NORMAL', price: 99.99 });
  });
  it('sends the billing service real fields on every event, all parseable by the core', async () => {
    const id = await buy('monthly');
    await op(id, 'cancel');
    await op(id, 'uncancel');
    await op(id, 'product_change', { new_product_id: 'annual' });
    await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'pack_500' });
    await op(id, 'billing_issue', { grace_period: 'P3D' });
    await advance('P3D');
    for (const body of app.sim.events()) {
      expect(body.api_version).toBe('1.0');
      expect(parseWebhook(body).ok).toBe(true);
      expect(body.event).toMatchObject({ app_id: 'app_sim', app_user_id: 'u1', original_app_user_id: 'u1', aliases: ['u1'] });
      if (body.event.type !== 'VIRTUAL_CURRENCY_TRANSACTION') expect(body.event).toMatchObject({ environment: 'SANDBOX', store: 'TEST_STORE' });
    }
    const purchase = app.sim.events()[0]?.event;
    expect(Object.keys(purchase ?? {})).toEqual(expect.arrayContaining([
      'id', 'type', 'app_id', 'app_user_id', 'original_app_user_id', 'aliases', 'product_id', 'period_type', 'purchased_at_ms',
      'expiration_at_ms', 'event_timestamp_ms', 'environment', 'store', 'entitlement_ids', 'presented_offering_id',
      'transaction_id', 'original_transaction_id', 'price', 'currency', 'country_code', 'renewal_number',
    ]));
  });
  it('puts the type-only fields on their type only', async () => {
    const id = await buy('monthly');
    await op(id, 'cancel');
    await advance('P1M');
    const events = app.sim.events().map((e) => e.event);
    for (const e of events) {
      expect('cancel_reason' in e).toBe(e.type === 'CANCELLATION');
      expect('expiration_reason' in e).toBe(e.type === 'EXPIRATION');
      expect('is_trial_conversion' in e).toBe(e.type === 'RENEWAL');
    }
  });
  it('uses virtual time for event_timestamp_ms', async () => {
    const id = await buy('monthly');
    await op(id, 'cancel');
    await advance('P1M');
    const expiration = app.sim.events().find((e) => e.event.type === 'EXPIRATION');
    expect(expiration?.event.event_timestamp_ms).toBe(Date.UTC(2026, 1, 1));
  });
  it('cancel sends CANCELLATION(UNSUBSCRIBE) now and EXPIRATION(UNSUBSCRIBE) at the period end', async () => {
    const id = await buy('monthly');
    fresh();
    await op(id, 'cancel');
    expect(fresh()).toMatchObject([{ type: 'CANCELLATION', cancel_reason: 'UNSUBSCRIBE' }]);
    await advance('P1M');
    expect(fresh().filter((e) => e.type !== 'VIRTUAL_CURRENCY_TRANSACTION')).toMatchObject([{ type: 'EXPIRATION', expiration_reason: 'UNSUBSCRIBE' }]);
  });
  it('uncancel sends UNCANCELLATION and the subscription renews', async () => {
    const id = await buy('monthly');
    await op(id, 'cancel');
    fresh();
    await op(id, 'uncancel');
    expect(types()).toEqual(['UNCANCELLATION']);
    await advance('P1M');
    expect(types()).toContain('RENEWAL');
  });
  it('a billing issue without grace sends BILLING_ISSUE, CANCELLATION(BILLING_ERROR) and EXPIRATION(BILLING_ERROR) at once', async () => {
    const id = await buy('monthly');
    fresh();
    await op(id, 'billing_issue');
    const events = fresh();
    expect(events).toMatchObject([
      { type: 'BILLING_ISSUE', grace_period_expiration_at_ms: null },
      { type: 'CANCELLATION', cancel_reason: 'BILLING_ERROR' },
      { type: 'EXPIRATION', expiration_reason: 'BILLING_ERROR' },
    ]);
    expect(new Set(events.map((e) => e.event_timestamp_ms)).size).toBe(1);
  });
  it('a billing issue with grace expires at the grace end', async () => {
    const id = await buy('monthly');
    fresh();
    await op(id, 'billing_issue', { grace_period: 'P3D' });
    expect(fresh()).toMatchObject([
      { type: 'BILLING_ISSUE', grace_period_expiration_at_ms: Date.UTC(2026, 0, 4) },
      { type: 'CANCELLATION', cancel_reason: 'BILLING_ERROR' },
    ]);
    await advance('P3D');
    expect(fresh()).toMatchObject([{ type: 'EXPIRATION', expiration_reason: 'BILLING_ERROR', event_timestamp_ms: Date.UTC(2026, 0, 4) }]);
  });
  it('a billing issue with grace then recovery sends RENEWAL and grants', async () => {
    const id = await buy('monthly');
    await op(id, 'billing_issue', { grace_period: 'P3D' });
    fresh();
    expect((await op(id, 'recover')).body.status).toBe('active');
    expect(types()).toEqual(['RENEWAL', 'VIRTUAL_CURRENCY_TRANSACTION']);
  });
  it('a billing issue at the next renewal fires at the cycle end', async () => {
    const id = await buy('monthly');
    await op(id, 'billing_issue', { when: 'next_renewal', grace_period: 'P1D' });
    fresh();
    await advance('P1M');
    expect(types()).toEqual(['VIRTUAL_CURRENCY_TRANSACTION', 'BILLING_ISSUE', 'CANCELLATION']);
  });
  it('a product change at the next renewal sends PRODUCT_CHANGE now and RENEWAL of the new product later', async () => {
    const id = await buy('monthly');
    fresh();
    await op(id, 'product_change', { new_product_id: 'annual' });
    expect(fresh()).toMatchObject([{ type: 'PRODUCT_CHANGE', product_id: 'monthly', new_product_id: 'annual' }]);
    await advance('P1M');
    expect(fresh().find((e) => e.type === 'RENEWAL')).toMatchObject({ product_id: 'annual' });
  });
  it('an immediate product change sends PRODUCT_CHANGE and RENEWAL now', async () => {
    const id = await buy('monthly');
    fresh();
    await op(id, 'product_change', { new_product_id: 'annual', timing: 'immediate' });
    expect(types()).toEqual(['PRODUCT_CHANGE', 'RENEWAL', 'VIRTUAL_CURRENCY_TRANSACTION']);
  });
  it('a refund sends CANCELLATION(CUSTOMER_SUPPORT) with a negative price, EXPIRATION, and takes the credits back', async () => {
    const id = await buy('annual');
    fresh();
    await op(id, 'refund');
    const events = fresh();
    expect(events).toMatchObject([
      { type: 'CANCELLATION', cancel_reason: 'CUSTOMER_SUPPORT', price: -99.99 },
      { type: 'EXPIRATION', expiration_reason: 'CUSTOMER_SUPPORT' },
      { type: 'VIRTUAL_CURRENCY_TRANSACTION', adjustments: [{ amount: -1500 }] },
    ]);
  });
  it('a top-up sends NON_RENEWING_PURCHASE and a VIRTUAL_CURRENCY_TRANSACTION with the grant', async () => {
    await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'pack_500' });
    expect(fresh()).toMatchObject([
      { type: 'NON_RENEWING_PURCHASE', product_id: 'pack_500', expiration_at_ms: null },
      {
        type: 'VIRTUAL_CURRENCY_TRANSACTION',
        adjustments: [{ amount: 500, currency: { code: 'CRD', name: 'Credits', description: 'AI credits' } }],
        product_display_name: 'pack_500',
        purchase_environment: 'SANDBOX',
        source: 'in_app_purchase',
      },
    ]);
  });
  it('expire sends EXPIRATION now', async () => {
    const id = await buy('monthly');
    fresh();
    await op(id, 'expire');
    expect(fresh()).toMatchObject([{ type: 'EXPIRATION', expiration_reason: 'DEVELOPER_INITIATED' }]);
    expect((await op(id, 'cancel')).status).toBe(422);
  });
  it('refuses a trial purchase of a product without trial with 400 naming trial', async () => {
    const res = await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'pack_500', trial: true });
    expect(res.body).toMatchObject({ type: 'parameter_error', param: 'trial' });
    expect(app.sim.events()).toEqual([]);
  });
  it('runs renewals in time order across subscriptions when the clock advances', async () => {
    await buy('monthly');
    await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u2', product_id: 'monthly', trial: true });
    fresh();
    await advance('P2M');
    const stamps = fresh().map((e) => e.event_timestamp_ms);
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
  });
});

describe('determinism', () => {
  const run = (seed: string) => {
    const sim = createBillingSimulator({ seed });
    const handle = createRequestHandler(sim);
    const post = (path: string, body: unknown) => handle({ method: 'POST', path, query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body) });
    post('/sim/products', { id: 'm', type: 'subscription', period: 'P1M' });
    post('/sim/purchases', { customer_id: 'u1', product_id: 'm' });
    post('/sim/clock/advance', { by: 'P3M' });
    return sim.events();
  };
  it('gives the same events for the same seed', () => {
    expect(run('a')).toEqual(run('a'));
    expect(run('a')[0]?.event.id).not.toBe(run('b')[0]?.event.id);
  });
});
