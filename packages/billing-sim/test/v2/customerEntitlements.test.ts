import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { P, startApp, type TestApp } from '../helpers.js';

let app: TestApp;
let premium: string;
let extra: string;
beforeEach(async () => {
  app = await startApp();
  await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
  await app.call('POST', '/sim/products', { id: 'lifetime', type: 'consumable' });
  premium = (await app.call('POST', `${P}/entitlements`, { lookup_key: 'premium', display_name: 'Premium' })).body.id;
  extra = (await app.call('POST', `${P}/entitlements`, { lookup_key: 'extra', display_name: 'Extra' })).body.id;
  await app.call('POST', `${P}/entitlements/${premium}/actions/attach_products`, { product_ids: ['monthly'] });
  await app.call('POST', `${P}/entitlements/${extra}/actions/attach_products`, { product_ids: ['lifetime'] });
});
afterEach(async () => {
  await app.close();
});

const active = async (id = 'u1') => (await app.call('GET', `${P}/customers/${id}/active_entitlements`)).body.items;

describe("API v2 customer entitlements", () => {
  it('lists what live subscriptions and owned one-time purchases unlock; an expired subscription unlocks nothing', async () => {
    const sub = (await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'monthly' })).body.subscription_id;
    await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'lifetime' });
    const end = (await app.call('GET', `${P}/subscriptions/${sub}`)).body.current_period_ends_at;
    expect(await active()).toEqual([
      { object: 'customer.active_entitlement', entitlement_id: premium, expires_at: end },
      { object: 'customer.active_entitlement', entitlement_id: extra, expires_at: null },
    ]);
    await app.call('POST', `/sim/subscriptions/${sub}/expire`);
    expect((await active()).map((e: { entitlement_id: string }) => e.entitlement_id)).toEqual([extra]);
  });

  it('grants until expires_at (201, the Customer), revokes it, and the grant lapses by itself on the clock', async () => {
    await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'lifetime' });
    const until = app.sim.now() + 86_400_000;
    const granted = await app.call('POST', `${P}/customers/u1/actions/grant_entitlement`, { entitlement_id: premium, expires_at: until });
    expect(granted).toMatchObject({ status: 201, body: { object: 'customer', id: 'u1' } });
    expect(await active()).toContainEqual({ object: 'customer.active_entitlement', entitlement_id: premium, expires_at: until });
    expect(app.sim.events().at(-1)!.event).toMatchObject({ type: 'NON_RENEWING_PURCHASE', store: 'PROMOTIONAL', period_type: 'PROMOTIONAL', app_user_id: 'u1', expiration_at_ms: until });
    const grantTxn = (app.sim.events().at(-1)!.event as { transaction_id: string }).transaction_id;
    const revoked = await app.call('POST', `${P}/customers/u1/actions/revoke_granted_entitlement`, { entitlement_id: premium });
    expect(revoked).toMatchObject({ status: 200, body: { object: 'customer', id: 'u1' } });
    // The webhook RevenueCat sends for it: the grant's CANCELLATION (CUSTOMER_SUPPORT), ending at the revoke.
    expect(app.sim.events().at(-1)!.event).toMatchObject({
      type: 'CANCELLATION', store: 'PROMOTIONAL', period_type: 'PROMOTIONAL', cancel_reason: 'CUSTOMER_SUPPORT', app_user_id: 'u1',
      transaction_id: grantTxn, expiration_at_ms: app.sim.now(), entitlement_ids: ['premium'],
    });
    expect((await active()).map((e: { entitlement_id: string }) => e.entitlement_id)).toEqual([extra]);
    await app.call('POST', `${P}/customers/u1/actions/grant_entitlement`, { entitlement_id: premium, expires_at: until });
    await app.call('POST', '/sim/clock/advance', { by: 'P2D' });
    expect((await active()).map((e: { entitlement_id: string }) => e.entitlement_id)).toEqual([extra]);
    expect((await app.call('POST', `${P}/customers/u1/actions/revoke_granted_entitlement`, { entitlement_id: premium })).body).toMatchObject({ type: 'resource_missing', param: 'entitlement_id' });
  });

  it('GET customer carries the active entitlements, and the attributes with expand=attributes', async () => {
    await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'lifetime' });
    await app.call('POST', `${P}/customers/u1/attributes`, { attributes: [{ name: '$email', value: 'u1@x.test' }] });
    const plain = (await app.call('GET', `${P}/customers/u1`)).body;
    expect(plain.active_entitlements.items).toEqual([{ object: 'customer.active_entitlement', entitlement_id: extra, expires_at: null }]);
    expect(plain.attributes).toBeUndefined();
    const expanded = (await app.call('GET', `${P}/customers/u1?expand=attributes`)).body;
    expect(expanded.attributes.items).toMatchObject([{ name: '$email', value: 'u1@x.test' }]);
    expect((await app.call('GET', `${P}/customers/u1?expand=nope`)).body).toMatchObject({ type: 'parameter_error', param: 'expand' });
  });

  it('refuses a grant in the past (400 expires_at), of an unknown entitlement (404) or to an unknown customer (404)', async () => {
    await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'lifetime' });
    expect((await app.call('POST', `${P}/customers/u1/actions/grant_entitlement`, { entitlement_id: premium, expires_at: app.sim.now() })).body).toMatchObject({ param: 'expires_at' });
    expect((await app.call('POST', `${P}/customers/u1/actions/grant_entitlement`, { entitlement_id: 'entlx', expires_at: app.sim.now() + 1 })).body).toMatchObject({ type: 'resource_missing', param: 'entitlement_id' });
    expect((await app.call('POST', `${P}/customers/ghost/actions/grant_entitlement`, { entitlement_id: premium, expires_at: app.sim.now() + 1 })).body).toMatchObject({ type: 'resource_missing', param: 'customer_id' });
  });
});
