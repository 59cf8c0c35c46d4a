import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers.js';

let app: TestApp;
afterEach(async () => {
  await app?.close();
});

const P = '/v2/projects/proj_sim';
const DAY = 86_400_000;

describe('API v2 purchase entitlements, the customer portal and overview metrics', () => {
  it("lists the entitlements a one-time purchase's product unlocks, in its list and in the Purchase object", async () => {
    app = await startApp();
    await app.call('POST', '/sim/products', { id: 'lifetime', type: 'consumable' });
    const entitlement = (await app.call('POST', `${P}/entitlements`, { lookup_key: 'pro', display_name: 'Pro' })).body.id;
    await app.call('POST', `${P}/entitlements/${entitlement}/actions/attach_products`, { product_ids: ['lifetime'] });
    const id = (await app.call('POST', '/sim/purchases', { customer_id: 'u1', product_id: 'lifetime' })).body.transaction_id;
    expect((await app.call('GET', `${P}/purchases/${id}/entitlements`)).body.items).toMatchObject([{ object: 'entitlement', lookup_key: 'pro' }]);
    expect((await app.call('GET', `${P}/purchases/${id}`)).body.entitlements.items).toMatchObject([{ object: 'entitlement', lookup_key: 'pro' }]);
  });

  it('hands out a single-use portal URL on the simulator for a Web Billing subscription only', async () => {
    app = await startApp();
    await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
    const web = (await app.call('POST', '/sim/purchases', { customer_id: 'w1', product_id: 'monthly', store: 'RC_BILLING' })).body.subscription_id;
    const other = (await app.call('POST', '/sim/purchases', { customer_id: 'a1', product_id: 'monthly' })).body.subscription_id;
    const issued = await app.call('GET', `${P}/subscriptions/${web}/authenticated_management_url`);
    expect(issued.body.object).toBe('authenticated_management_url');
    const url = new URL(issued.body.management_url);
    expect(url.origin).toBe(app.url);
    expect((await app.call('GET', url.pathname)).body).toMatchObject({ object: 'sim.customer_portal', customer_id: 'w1', subscription_id: web });
    expect((await app.call('GET', url.pathname)).status).toBe(404);
    expect((await app.call('GET', `${P}/subscriptions/${other}/authenticated_management_url`)).body).toMatchObject({ type: 'parameter_error', param: 'subscription_id' });
  });

  it('computes the overview from the virtual world: trials, active subscriptions, MRR, 28-day revenue, new and active customers', async () => {
    // The Charts & Metrics domain allows 5 requests a minute: this test asks more often.
    app = await startApp({ environment: 'PRODUCTION' }, { rateLimits: false });
    await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M', price: 10 });
    await app.call('POST', '/sim/products', { id: 'annual', type: 'subscription', period: 'P1Y', price: 120 });
    await app.call('POST', '/sim/products', { id: 'annual_trial', type: 'subscription', period: 'P1Y', price: 120, trial_period: 'P7D' });
    await app.call('POST', '/sim/purchases', { customer_id: 'm1', product_id: 'monthly' });
    await app.call('POST', '/sim/purchases', { customer_id: 'y1', product_id: 'annual' });
    await app.call('POST', '/sim/purchases', { customer_id: 't1', product_id: 'annual_trial', trial: true });
    await app.call('POST', '/sim/purchases', { customer_id: 's1', product_id: 'monthly', environment: 'SANDBOX' });
    const values = async () =>
      Object.fromEntries(((await app.call('GET', `${P}/metrics/overview`)).body.metrics as { id: string; value: number }[]).map((m) => [m.id, m.value]));
    // Day 0: the sandbox purchase is left out of the subscription figures; its customer is a customer.
    expect(await values()).toEqual({ active_trials: 1, active_subscriptions: 2, mrr: 20, revenue: 130, new_customers: 4, active_users: 4 });
    // Day 20: the trial converted on day 7 (120 more revenue, 10 more MRR).
    await app.call('POST', '/sim/clock/advance', { by: 20 * DAY });
    expect(await values()).toEqual({ active_trials: 0, active_subscriptions: 3, mrr: 30, revenue: 250, new_customers: 4, active_users: 4 });
    // Day 40: the window (day 12, day 40] holds only the monthly renewal; nobody was seen in it.
    await app.call('POST', '/sim/clock/advance', { by: 20 * DAY });
    expect(await values()).toEqual({ active_trials: 0, active_subscriptions: 3, mrr: 30, revenue: 10, new_customers: 0, active_users: 0 });
  });

  it("counts a one-time purchase's revenue in the purchase's own environment", async () => {
    app = await startApp({ environment: 'PRODUCTION' });
    await app.call('POST', '/sim/products', { id: 'pack', type: 'consumable', price: 5 });
    await app.call('POST', '/sim/purchases', { customer_id: 'p1', product_id: 'pack' });
    await app.call('POST', '/sim/purchases', { customer_id: 's1', product_id: 'pack', environment: 'SANDBOX' });
    const metrics = (await app.call('GET', `${P}/metrics/overview`)).body.metrics as { id: string; value: number }[];
    expect(metrics.find((m) => m.id === 'revenue')?.value).toBe(5);
  });

  it('reports in USD only and limits to 5 requests a minute (Charts & Metrics)', async () => {
    app = await startApp();
    expect((await app.call('GET', `${P}/metrics/overview?currency=EUR`)).body).toMatchObject({ type: 'parameter_error', param: 'currency' });
    expect((await app.call('GET', `${P}/metrics/overview?currency=XXX`)).body).toMatchObject({ type: 'parameter_error', param: 'currency' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await app.call('GET', `${P}/metrics/overview`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
