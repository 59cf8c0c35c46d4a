/**
 * The official web SDK (`@revenuecat/purchases-js`, unchanged, its ES build in Node) against a real
 * `tenure-billing-sim` process, configured with nothing but `proxyURL` and the project's Test Store
 * public key. Every result is checked against what the simulator holds (its /sim and API v2 views).
 * Purchase needs a browser: `officialSdk.browser.test.ts`.
 */
import { ErrorCode, Purchases, PurchasesError } from '@revenuecat/purchases-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkWorld, type SdkWorld } from './sdkWorld.js';

let world: SdkWorld;
beforeAll(async () => {
  world = await startSdkWorld();
}, 60_000);
afterAll(async () => {
  await world?.close();
});

/** The SDK configured as an app would be, pointed at the simulator. */
const sdk = (appUserId: string, apiKey = world.publicKey) =>
  Purchases.configure({ apiKey, appUserId, httpConfig: { proxyURL: world.sim.url }, flags: { collectAnalyticsEvents: false } });

const buy = (customerId: string, productId: string, trial = false) =>
  world.call('POST', '/sim/purchases', { project_id: 'proj_sim', customer_id: customerId, product_id: productId, trial });

const simCustomer = async (id: string) => (await world.call('GET', `/sim/customers/${encodeURIComponent(id)}`)).body;

describe('the official web SDK against the simulator (Node)', () => {
  it('getCustomerInfo reads the subscription, its entitlement and its dates as the simulator holds them', async () => {
    await buy('ann', 'monthly');
    const info = await sdk('ann').getCustomerInfo();
    const held = (await simCustomer('ann')).subscriptions[0];
    const pro = info.entitlements.active['pro'];
    expect(pro?.productIdentifier).toBe('monthly');
    expect(pro?.expirationDate?.getTime()).toBe(held.current_period_ends_at);
    expect(pro?.latestPurchaseDate.getTime()).toBe(held.current_period_starts_at);
    expect(pro?.willRenew).toBe(true);
    expect(pro?.isSandbox).toBe(true);
    expect([...info.activeSubscriptions]).toEqual(['monthly']);
    expect(info.originalAppUserId).toBe('ann');
    expect(info.requestDate.getTime()).toBe((await world.call('GET', '/sim/clock')).body.now);
  });

  it('isEntitledTo follows the subscription: true while it runs, and willRenew false once cancelled', async () => {
    await buy('bea', 'monthly');
    expect(await sdk('bea').isEntitledTo('pro')).toBe(true);
    expect(await sdk('nobody-yet').isEntitledTo('pro')).toBe(false);
    const sub = (await simCustomer('bea')).subscriptions[0];
    await world.call('POST', `/sim/subscriptions/${sub.id}/cancel`, {});
    const pro = (await sdk('bea').getCustomerInfo()).entitlements.active['pro'];
    expect(pro?.willRenew).toBe(false);
    expect(pro?.unsubscribeDetectedAt).not.toBeNull();
  });

  it('getOfferings: the current offering with priced packages, a chosen one, and a currency', async () => {
    const offerings = await sdk('cat').getOfferings();
    expect(offerings.current?.identifier).toBe('default');
    expect(Object.keys(offerings.all).sort()).toEqual(['default', 'sale']);
    const monthly = offerings.current?.monthly;
    expect(monthly?.webBillingProduct.identifier).toBe('monthly');
    expect(monthly?.webBillingProduct.currentPrice.formattedPrice).toBe('$9.99');
    expect(monthly?.webBillingProduct.normalPeriodDuration).toBe('P1M');
    expect(monthly?.webBillingProduct.defaultSubscriptionOption?.trial?.periodDuration).toBe('P7D');
    expect(offerings.current?.annual?.webBillingProduct.currentPrice.amountMicros).toBe(79_990_000);
    const chosen = await sdk('cat').getOfferings({ offeringIdentifier: 'sale' });
    expect(Object.keys(chosen.all)).toEqual(['sale']);
    expect(chosen.all['sale']?.annual?.webBillingProduct.identifier).toBe('annual');
    const inUsd = await sdk('cat').getOfferings({ currency: 'USD' });
    expect(inUsd.current?.monthly?.webBillingProduct.currentPrice.currency).toBe('USD');
  });

  it("getOfferings shows a customer's assigned offering as its current one", async () => {
    await world.call('POST', '/v2/projects/proj_sim/customers', { id: 'dan' });
    const sale = (await world.call('GET', '/v2/projects/proj_sim/offerings')).body.items.find((o: { lookup_key: string }) => o.lookup_key === 'sale').id;
    await world.call('POST', '/v2/projects/proj_sim/customers/dan/actions/assign_offering', { offering_id: sale });
    expect((await sdk('dan').getOfferings()).current?.identifier).toBe('sale');
  });

  it('getCurrentOfferingForPlacement: a mapped placement, one mapped to none, and the fallback', async () => {
    const app = sdk('eve');
    expect((await app.getCurrentOfferingForPlacement('onboarding'))?.identifier).toBe('sale');
    expect(await app.getCurrentOfferingForPlacement('nowhere')).toBeNull();
    expect((await app.getCurrentOfferingForPlacement('anything-else'))?.identifier).toBe('default');
  });

  it('identifyUser: a new id is created and takes the anonymous purchases with it; an existing id is not', async () => {
    const anonymous = Purchases.generateRevenueCatAnonymousAppUserId();
    await buy(anonymous, 'monthly');
    const app = sdk(anonymous);
    const created = await app.identifyUser('fay');
    expect(created.wasCreated).toBe(true);
    expect(created.customerInfo.entitlements.active['pro']?.productIdentifier).toBe('monthly');
    expect((await simCustomer('fay')).subscriptions).toHaveLength(1);
    expect(app.getAppUserId()).toBe('fay');
    const again = await sdk('someone').identifyUser('fay');
    expect(again.wasCreated).toBe(false);
    // The webhook is delivered after the response, on its own: wait for it, as an app's backend would.
    const transfer = () => world.receiver.received.map((r) => r.body.event).find((e) => e.type === 'TRANSFER' && e.transferred_to[0] === 'fay');
    await expect.poll(() => transfer()?.transferred_from).toEqual([anonymous]);
  });

  it('changeUser switches to another customer and reads its info', async () => {
    await buy('gus', 'annual');
    const app = sdk('someone-else');
    const info = await app.changeUser('gus');
    expect(app.getAppUserId()).toBe('gus');
    expect(info.entitlements.active['pro']?.productIdentifier).toBe('annual');
  });

  it('setAttributes stores them on the customer (API v2 lists them); null deletes one', async () => {
    const app = sdk('hal');
    await app.setAttributes({ $email: 'hal@example.test', tier: 'gold' });
    const listed = async () => (await world.call('GET', '/v2/projects/proj_sim/customers/hal/attributes')).body.items.map((a: { name: string; value: string }) => [a.name, a.value]);
    expect(await listed()).toEqual([['$email', 'hal@example.test'], ['tier', 'gold']]);
    await app.setAttributes({ tier: null });
    expect(await listed()).toEqual([['$email', 'hal@example.test']]);
  });

  it('setAttributes with an invalid email is refused with the SDK\'s invalid-attributes error, and nothing is saved', async () => {
    const error = await sdk('ida').setAttributes({ $email: 'not an email', tier: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PurchasesError);
    expect((error as PurchasesError).errorCode).toBe(ErrorCode.InvalidSubscriberAttributesError);
    expect((await world.call('GET', '/v2/projects/proj_sim/customers/ida/attributes')).body.items).toEqual([]);
  });

  it('getVirtualCurrencies reads the balances API v2 reports', async () => {
    await buy('jan', 'monthly');
    await buy('jan', 'pack');
    const all = (await sdk('jan').getVirtualCurrencies()).all;
    const v2 = (await world.call('GET', '/v2/projects/proj_sim/customers/jan/virtual_currencies')).body.items;
    expect(all['CRD']?.balance).toBe(600);
    expect(all['CRD']?.balance).toBe(v2[0].balance);
    expect(all['CRD']?.name).toBe('Credits');
  });

  it('a grant through API v1 reaches the SDK as an active promotional entitlement, and its webhook is sent', async () => {
    const granted = await world.call('POST', '/v1/subscribers/kim/entitlements/pro/promotional', { duration: 'weekly' });
    expect(granted.status).toBe(201);
    const pro = (await sdk('kim').getCustomerInfo()).entitlements.active['pro'];
    expect(pro?.productIdentifier).toBe('rc_promo_pro_weekly');
    expect(pro?.store).toBe('promotional');
    expect(pro?.willRenew).toBe(false);
    await expect.poll(() => world.receiver.received.map((r) => r.body.event).find((e) => e.app_user_id === 'kim')).toMatchObject({
      type: 'NON_RENEWING_PURCHASE',
      store: 'PROMOTIONAL',
      period_type: 'PROMOTIONAL',
      product_id: 'rc_promo_pro_weekly',
      entitlement_ids: ['pro'],
    });
  });

  it('a wrong key is the SDK\'s own invalid-credentials error', async () => {
    const error = await sdk('lou', 'test_wrongwrongwrong').getCustomerInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PurchasesError);
    expect((error as PurchasesError).errorCode).toBe(ErrorCode.InvalidCredentialsError);
  });
});
