import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { P, startApp, type TestApp } from '../helpers.js';

let app: TestApp;
beforeEach(async () => {
  app = await startApp({ projects: ['proj1', 'other'] });
  await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
});
afterEach(async () => {
  await app.close();
});

describe('API v2 products and entitlements', () => {
  it('creates a product that can be bought (id = store identifier), listed and read', async () => {
    const res = await app.call('POST', `${P}/products`, { store_identifier: 'pro_yearly', app_id: 'app_sim', type: 'subscription', subscription: { duration: 'P1Y' } });
    expect(res).toMatchObject({ status: 201, body: { object: 'product', id: 'pro_yearly', store_identifier: 'pro_yearly', type: 'subscription', subscription: { duration: 'P1Y' }, created_at: app.sim.now(), app_id: 'app_sim' } });
    expect((await app.call('GET', `${P}/products`)).body.items.map((p: { id: string }) => p.id)).toEqual(['monthly', 'pro_yearly']);
    expect((await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'pro_yearly' })).status).toBe(201);
    expect((await app.call('GET', `${P}/products/monthly`)).body).toMatchObject({ id: 'monthly', created_at: 0 });
  });

  it('refuses product types the simulator does not sell (422) and a subscription without a duration (400)', async () => {
    expect((await app.call('POST', `${P}/products`, { store_identifier: 'x', app_id: 'a', type: 'non_consumable' })).body).toMatchObject({ type: 'unprocessable_entity_error', param: 'type' });
    expect((await app.call('POST', `${P}/products`, { store_identifier: 'x', app_id: 'a', type: 'subscription' })).body).toMatchObject({ type: 'parameter_error', param: 'subscription' });
  });

  it('takes a null display_name or title as absent: the display name defaults to the store identifier', async () => {
    const res = await app.call('POST', `${P}/products`, { store_identifier: 'gems', app_id: 'app_sim', type: 'consumable', display_name: null, title: null });
    expect(res).toMatchObject({ status: 201, body: { id: 'gems', display_name: 'gems' } });
  });

  it("takes a subscription duration of the document's enum only (400 naming subscription.duration); /sim products take any", async () => {
    for (const duration of ['P1W', 'P1M', 'P2M', 'P3M', 'P6M', 'P1Y']) {
      const res = await app.call('POST', `${P}/products`, { store_identifier: `sub_${duration}`, app_id: 'app_sim', type: 'subscription', subscription: { duration } });
      expect(res).toMatchObject({ status: 201, body: { subscription: { duration } } });
    }
    const odd = await app.call('POST', `${P}/products`, { store_identifier: 'five_days', app_id: 'app_sim', type: 'subscription', subscription: { duration: 'P5D' } });
    expect(odd).toMatchObject({ status: 400, body: { type: 'parameter_error', param: 'subscription.duration' } });
    expect((await app.call('GET', `${P}/products/five_days`)).status).toBe(404);
    expect((await app.call('POST', '/sim/products', { id: 'five_days', type: 'subscription', period: 'P5D' })).status).toBe(201);
  });

  it('creates entitlements with a unique lookup key per project', async () => {
    const res = await app.call('POST', `${P}/entitlements`, { lookup_key: 'premium', display_name: 'Premium' });
    expect(res).toMatchObject({ status: 201, body: { object: 'entitlement', project_id: 'proj1', lookup_key: 'premium', display_name: 'Premium', id: expect.stringMatching(/^entl[0-9a-f]{16}$/) } });
    expect((await app.call('POST', `${P}/entitlements`, { lookup_key: 'premium', display_name: 'x' })).body).toMatchObject({ type: 'resource_already_exists', param: 'lookup_key' });
    expect((await app.call('POST', '/v2/projects/other/entitlements', { lookup_key: 'premium', display_name: 'x' })).status).toBe(201);
    expect((await app.call('GET', `/v2/projects/other/entitlements/${res.body.id}`)).status).toBe(404);
  });

  it('attaching a product names the entitlement on its subscriptions and in its webhooks; detaching stops it', async () => {
    const entl = (await app.call('POST', `${P}/entitlements`, { lookup_key: 'premium', display_name: 'Premium' })).body;
    await app.call('POST', `${P}/entitlements/${entl.id}/actions/attach_products`, { product_ids: ['monthly'] });
    expect((await app.call('GET', `${P}/entitlements/${entl.id}/products`)).body.items.map((p: { id: string }) => p.id)).toEqual(['monthly']);
    const sub = (await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'monthly' })).body.subscription_id;
    expect((app.sim.events().at(-1)?.event as { entitlement_ids?: string[] }).entitlement_ids).toEqual(['premium']);
    expect((await app.call('GET', `${P}/subscriptions/${sub}/entitlements`)).body.items).toMatchObject([{ object: 'entitlement', lookup_key: 'premium' }]);
    await app.call('POST', `${P}/entitlements/${entl.id}/actions/detach_products`, { product_ids: ['monthly'] });
    expect((await app.call('GET', `${P}/subscriptions/${sub}`)).body.entitlements.items).toEqual([]);
    await app.call('POST', '/sim/clock/advance', { by: 'P1M' });
    expect((app.sim.events().at(-1)?.event as { entitlement_ids?: string[] | null }).entitlement_ids ?? null).toBeNull();
  });

  it('answers 404 naming product_ids when attaching a product the catalog lacks, and changes nothing', async () => {
    const entl = (await app.call('POST', `${P}/entitlements`, { lookup_key: 'premium', display_name: 'Premium' })).body;
    const res = await app.call('POST', `${P}/entitlements/${entl.id}/actions/attach_products`, { product_ids: ['monthly', 'ghost'] });
    expect(res.body).toMatchObject({ type: 'resource_missing', param: 'product_ids' });
    expect((await app.call('GET', `${P}/entitlements/${entl.id}/products`)).body.items).toEqual([]);
  });
});
