import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '@tenure/testkit';
import { P, startApp, type TestApp } from '../helpers.js';

let app: TestApp;
let subId: string;
beforeEach(async () => {
  app = await startApp({ projects: ['proj1', 'other'] });
  await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M', price: 10 });
  await app.call('POST', '/sim/products', { id: 'annual', type: 'subscription', period: 'P1Y', trial_period: 'P7D', price: 50 });
  subId = (await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'monthly' })).body.subscription_id;
});
afterEach(async () => {
  await app.close();
});

const getSub = async (id = subId) => (await app.call('GET', `${P}/subscriptions/${id}`)).body;

describe('API v2 subscriptions', () => {
  it('answers the Subscription object of a new paid subscription', async () => {
    const start = app.sim.now();
    expect(await getSub()).toMatchObject({
      object: 'subscription', id: subId, customer_id: 'u1', original_customer_id: 'u1', product_id: 'monthly',
      starts_at: start, current_period_starts_at: start, ends_at: null, gives_access: true, pending_payment: false,
      auto_renewal_status: 'will_renew', status: 'active', environment: 'sandbox', store: 'app_store', ownership: 'purchased',
      total_revenue_in_usd: { currency: 'USD', gross: 10, commission: 1.5, tax: 0, proceeds: 8.5 },
    });
  });

  it('counts revenue per billed period and reports a trial as trialing with no revenue', async () => {
    const trial = (await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'annual', trial: true })).body.subscription_id;
    expect(await getSub(trial)).toMatchObject({ status: 'trialing', total_revenue_in_usd: { gross: 0 } });
    await app.call('POST', '/sim/clock/advance', { by: 'P2M' });
    expect((await getSub()).total_revenue_in_usd.gross).toBe(30);
    expect(await getSub(trial)).toMatchObject({ status: 'active', total_revenue_in_usd: { gross: 50 } });
  });

  it('lists a customer\'s subscriptions, filtered by environment', async () => {
    const list = (q = '') => app.call('GET', `${P}/customers/u1/subscriptions${q}`);
    expect((await list()).body.items.map((s: { id: string }) => s.id)).toEqual([subId]);
    expect((await list('?environment=sandbox')).body.items).toHaveLength(1);
    expect((await list('?environment=production')).body.items).toHaveLength(0);
    const prod = (await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'annual', environment: 'PRODUCTION', store: 'PLAY_STORE' })).body.subscription_id;
    expect((await list('?environment=production')).body.items).toMatchObject([{ id: prod, environment: 'production', store: 'play_store' }]);
    expect((await list('?environment=sandbox')).body.items.map((s: { id: string }) => s.id)).toEqual([subId]);
    expect((await list('?environment=prod')).body).toMatchObject({ type: 'parameter_error', param: 'environment' });
  });

  it('finds a subscription by its current or original store transaction id', async () => {
    const original = (await getSub()).store_subscription_identifier;
    await app.call('POST', '/sim/clock/advance', { by: 'P1M' });
    const current = (await getSub()).store_subscription_identifier;
    expect(current).not.toBe(original);
    for (const id of [original, current]) {
      expect((await app.call('GET', `${P}/subscriptions?store_subscription_identifier=${id}`)).body.items.map((s: { id: string }) => s.id)).toEqual([subId]);
    }
    expect((await app.call('GET', '/v2/projects/other/subscriptions?store_subscription_identifier=' + current)).body.items).toEqual([]);
    expect((await app.call('GET', `${P}/subscriptions`)).body).toMatchObject({ type: 'parameter_error', param: 'store_subscription_identifier' });
  });

  it('answers 404 for a subscription of another project', async () => {
    const res = await app.call('GET', `/v2/projects/other/subscriptions/${subId}`);
    expect(res).toMatchObject({ status: 404, body: { type: 'resource_missing', param: 'subscription_id' } });
  });

  it('cancels: auto-renew off, ends_at the period end, the CANCELLATION webhook now and EXPIRATION at the end', async () => {
    const res = await app.call('POST', `${P}/subscriptions/${subId}/actions/cancel`);
    expect(res.body).toMatchObject({ auto_renewal_status: 'will_not_renew', status: 'active', gives_access: true, ends_at: res.body.current_period_ends_at });
    expect(app.sim.events().map((e) => e.event.type)).toEqual(['INITIAL_PURCHASE', 'CANCELLATION']);
    expect((await app.call('POST', `${P}/subscriptions/${subId}/actions/cancel`)).status).toBe(422);
    await app.call('POST', '/sim/clock/advance', { by: 32 * DAY });
    expect(await getSub()).toMatchObject({ status: 'expired', gives_access: false });
    expect(app.sim.events().at(-1)?.event.type).toBe('EXPIRATION');
  });

  it('refunds: access revoked at once with CANCELLATION (CUSTOMER_SUPPORT) and EXPIRATION', async () => {
    const res = await app.call('POST', `${P}/subscriptions/${subId}/actions/refund`);
    expect(res.body).toMatchObject({ status: 'expired', gives_access: false });
    const events = app.sim.events().slice(1).map((e) => [e.event.type, (e.event as { cancel_reason?: string }).cancel_reason]);
    expect(events.map((e) => e[0])).toEqual(['CANCELLATION', 'EXPIRATION']);
    expect(events[0]?.[1]).toBe('CUSTOMER_SUPPORT');
  });

  it("refunds the current period's transaction (as actions/refund); an earlier one is 422, an unknown one 404", async () => {
    await app.call('POST', '/sim/clock/advance', { by: 'P1M' });
    const [first, current] = (await app.call('GET', `${P}/subscriptions/${subId}/transactions`)).body.items;
    expect((await app.call('POST', `${P}/subscriptions/${subId}/transactions/${first.id}/actions/refund`)).status).toBe(422);
    expect((await app.call('POST', `${P}/subscriptions/${subId}/transactions/x9/actions/refund`)).body).toMatchObject({ type: 'resource_missing', param: 'transaction_id' });
    const before = app.sim.eventCount();
    const res = await app.call('POST', `${P}/subscriptions/${subId}/transactions/${current.id}/actions/refund`);
    expect(res.body).toMatchObject({ object: 'subscription_transaction', id: current.id });
    expect(app.sim.eventsSince(before).map((e) => e.event.type)).toEqual(['CANCELLATION', 'EXPIRATION']);
    expect((await getSub()).status).toBe('expired');
  });

  it('lists every transaction of the subscription, one per renewal, oldest first, paged', async () => {
    const txs = async (q = '') => (await app.call('GET', `${P}/subscriptions/${subId}/transactions${q}`)).body;
    const first = (await txs()).items;
    expect(first).toHaveLength(1);
    for (let i = 0; i < 3; i += 1) await app.call('POST', '/sim/clock/advance', { by: 'P1M' });
    const all = (await txs()).items as { id: string; purchased_at: number; expiration_date: number; effective_expiration_date: number }[];
    expect(all).toHaveLength(4);
    expect(all[0]!.id).toBe(first[0].id);
    expect(all.at(-1)!.id).toBe((await getSub()).store_subscription_identifier);
    expect(new Set(all.map((t) => t.id)).size).toBe(4);
    // Each period ends where the next renewal starts.
    for (let i = 1; i < all.length; i += 1) expect(all[i - 1]!.expiration_date).toBe(all[i]!.purchased_at);
    const page = await txs('?limit=3');
    expect(page.items.map((t: { id: string }) => t.id)).toEqual(all.slice(0, 3).map((t) => t.id));
    expect(page.next_page).toContain(`starting_after=${all[2]!.id}`);
    expect((await txs(`?limit=3&starting_after=${all[2]!.id}`)).items.map((t: { id: string }) => t.id)).toEqual([all[3]!.id]);
  });

  it('ends a refunded transaction at the refund and keeps the earlier ones as they were', async () => {
    await app.call('POST', '/sim/clock/advance', { by: 'P1M' });
    await app.call('POST', '/sim/clock/advance', { by: 'P3D' });
    const before = (await app.call('GET', `${P}/subscriptions/${subId}/transactions`)).body.items;
    await app.call('POST', `${P}/subscriptions/${subId}/actions/refund`);
    const after = (await app.call('GET', `${P}/subscriptions/${subId}/transactions`)).body.items;
    expect(after[0]).toEqual(before[0]);
    expect(after[1]).toMatchObject({ id: before[1].id, expiration_date: before[1].expiration_date, effective_expiration_date: app.sim.now() });
  });

  it('shows a product change at the next renewal as will_change_product with the pending product', async () => {
    await app.call('POST', `/sim/subscriptions/${subId}/product_change`, { new_product_id: 'annual', timing: 'next_renewal' });
    expect(await getSub()).toMatchObject({ auto_renewal_status: 'will_change_product', pending_changes: { product: { object: 'product', id: 'annual', subscription: { duration: 'P1Y', trial_duration: 'P7D' } } } });
  });
});
