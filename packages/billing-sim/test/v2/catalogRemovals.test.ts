import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers.js';

let app: TestApp;
afterEach(async () => {
  await app?.close();
});

const P = '/v2/projects/proj_sim';

describe('API v2 catalog updates, deletions and expansions', () => {
  it("deletes an entitlement: later webhooks of its products stop naming it, and customers' grants of it go", async () => {
    app = await startApp();
    await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
    const id = (await app.call('POST', `${P}/entitlements`, { lookup_key: 'pro', display_name: 'Pro' })).body.id;
    await app.call('POST', `${P}/entitlements/${id}/actions/attach_products`, { product_ids: ['monthly'] });
    expect((await app.call('POST', `${P}/entitlements/${id}`, { display_name: 'Pro plan' })).body).toMatchObject({ id, display_name: 'Pro plan' });
    await app.call('POST', `${P}/customers`, { id: 'g1' });
    await app.call('POST', `${P}/customers/g1/actions/grant_entitlement`, { entitlement_id: id, expires_at: 4_102_444_000_000 });
    expect((await app.call('DELETE', `${P}/entitlements/${id}`)).body).toMatchObject({ object: 'entitlement', id });
    expect((await app.call('GET', `${P}/customers/g1/active_entitlements`)).body.items).toEqual([]);
    expect(app.sim.world().products.get('monthly')?.entitlement_ids ?? null).toBeNull();
    expect((await app.call('GET', `${P}/entitlements/${id}`)).status).toBe(404);
  });

  it('deletes a product nothing was bought with, detaching it from entitlements and packages; refuses one with purchases', async () => {
    app = await startApp();
    await app.call('POST', `${P}/products`, { store_identifier: 'unsold', app_id: 'app_sim', type: 'consumable' });
    await app.call('POST', `${P}/products`, { store_identifier: 'sold', app_id: 'app_sim', type: 'consumable' });
    const e = (await app.call('POST', `${P}/entitlements`, { lookup_key: 'pro', display_name: 'Pro' })).body.id;
    await app.call('POST', `${P}/entitlements/${e}/actions/attach_products`, { product_ids: ['unsold', 'sold'] });
    const o = (await app.call('POST', `${P}/offerings`, { lookup_key: 'default', display_name: 'Default' })).body.id;
    const pkg = (await app.call('POST', `${P}/offerings/${o}/packages`, { lookup_key: 'p', display_name: 'P' })).body.id;
    await app.call('POST', `${P}/packages/${pkg}/actions/attach_products`, { products: [{ product_id: 'unsold', eligibility_criteria: 'all' }] });
    await app.call('POST', '/sim/purchases', { customer_id: 'u1', product_id: 'sold' });
    expect((await app.call('DELETE', `${P}/products/sold`)).body).toMatchObject({ type: 'unprocessable_entity_error', param: 'product_id' });
    expect((await app.call('DELETE', `${P}/products/unsold`)).body).toMatchObject({ object: 'product', id: 'unsold' });
    expect((await app.call('GET', `${P}/products/unsold`)).status).toBe(404);
    expect((await app.call('GET', `${P}/entitlements/${e}/products`)).body.items.map((p: { id: string }) => p.id)).toEqual(['sold']);
    expect((await app.call('GET', `${P}/packages/${pkg}/products`)).body.items).toEqual([]);
  });

  it('expands a product with its app and an entitlement with its products, only when asked', async () => {
    app = await startApp();
    await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
    const e = (await app.call('POST', `${P}/entitlements`, { lookup_key: 'pro', display_name: 'Pro' })).body.id;
    await app.call('POST', `${P}/entitlements/${e}/actions/attach_products`, { product_ids: ['monthly'] });
    expect((await app.call('GET', `${P}/entitlements/${e}`)).body.products).toBeUndefined();
    expect((await app.call('GET', `${P}/entitlements/${e}?expand=product`)).body.products.items.map((p: { id: string }) => p.id)).toEqual(['monthly']);
    expect((await app.call('GET', `${P}/entitlements?expand=items.product`)).body.items[0].products.items).toHaveLength(1);
    expect((await app.call('GET', `${P}/products/monthly`)).body.app).toBeUndefined();
    expect((await app.call('GET', `${P}/products/monthly?expand=app`)).body.app).toMatchObject({ object: 'app', id: 'app_sim', project_id: 'proj_sim' });
    expect((await app.call('GET', `${P}/products?expand=app`)).body).toMatchObject({ type: 'parameter_error', param: 'expand' });
  });
});
