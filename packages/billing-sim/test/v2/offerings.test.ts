import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers.js';

let app: TestApp;
afterEach(async () => {
  await app?.close();
});

const P = '/v2/projects/proj_sim';
const ids = (list: { items: { id: string }[] }) => list.items.map((i) => i.id);

async function setup(): Promise<{ a: string; b: string }> {
  app = await startApp();
  await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
  await app.call('POST', '/sim/products', { id: 'annual', type: 'subscription', period: 'P1Y' });
  const a = (await app.call('POST', `${P}/offerings`, { lookup_key: 'default', display_name: 'Default' })).body.id as string;
  const b = (await app.call('POST', `${P}/offerings`, { lookup_key: 'sale', display_name: 'Sale' })).body.id as string;
  return { a, b };
}

describe('API v2 offerings and packages', () => {
  it("makes the project's first offering current; is_current moves it, and false leaves none", async () => {
    const { a, b } = await setup();
    const current = async () => (await app.call('GET', `${P}/offerings`)).body.items.filter((o: { is_current: boolean }) => o.is_current).map((o: { id: string }) => o.id);
    expect(await current()).toEqual([a]);
    expect((await app.call('POST', `${P}/offerings/${b}`, { is_current: true })).body).toMatchObject({ id: b, is_current: true });
    expect(await current()).toEqual([b]);
    await app.call('POST', `${P}/offerings/${b}`, { is_current: false });
    expect(await current()).toEqual([]);
    expect(a).toMatch(/^ofrng[0-9a-f]{10}$/);
  });

  it('lists packages by position, then creation, and expands them with their products only when asked', async () => {
    const { a } = await setup();
    const annual = (await app.call('POST', `${P}/offerings/${a}/packages`, { lookup_key: '$rc_annual', display_name: 'Annual', position: 2 })).body.id;
    const monthly = (await app.call('POST', `${P}/offerings/${a}/packages`, { lookup_key: '$rc_monthly', display_name: 'Monthly', position: 1 })).body.id;
    const loose = (await app.call('POST', `${P}/offerings/${a}/packages`, { lookup_key: 'extra', display_name: 'Extra' })).body.id;
    await app.call('POST', `${P}/packages/${monthly}/actions/attach_products`, { products: [{ product_id: 'monthly', eligibility_criteria: 'all' }] });
    expect(ids((await app.call('GET', `${P}/offerings/${a}/packages`)).body)).toEqual([monthly, annual, loose]);
    expect((await app.call('GET', `${P}/offerings/${a}`)).body.packages).toBeUndefined();
    const shallow = (await app.call('GET', `${P}/offerings/${a}?expand=package`)).body.packages.items[0];
    expect(shallow).toMatchObject({ id: monthly, position: 1 });
    expect(shallow.products).toBeUndefined();
    const deep = (await app.call('GET', `${P}/offerings?expand=items.package.product`)).body.items[0].packages.items[0];
    expect(deep.products.items).toMatchObject([{ product: { object: 'product', id: 'monthly' }, eligibility_criteria: 'all' }]);
    expect((await app.call('GET', `${P}/packages/${monthly}/products`)).body.items.map((p: { product: { id: string } }) => p.product.id)).toEqual(['monthly']);
  });

  it('holds one product per eligibility criteria (one app) and detaches all or nothing', async () => {
    const { a } = await setup();
    const pkg = (await app.call('POST', `${P}/offerings/${a}/packages`, { lookup_key: '$rc_monthly', display_name: 'Monthly' })).body.id;
    const attach = (products: unknown[]) => app.call('POST', `${P}/packages/${pkg}/actions/attach_products`, { products });
    expect((await attach([{ product_id: 'monthly', eligibility_criteria: 'all' }])).status).toBe(200);
    expect((await attach([{ product_id: 'annual', eligibility_criteria: 'all' }])).body).toMatchObject({ type: 'unprocessable_entity_error', param: 'products' });
    expect((await attach([{ product_id: 'ghost', eligibility_criteria: 'all' }])).body).toMatchObject({ type: 'resource_missing', param: 'products' });
    expect((await attach([{ product_id: 'annual', eligibility_criteria: 'google_sdk_ge_6' }])).body.products.items).toHaveLength(2);
    const detached = await app.call('POST', `${P}/packages/${pkg}/actions/detach_products`, { product_ids: ['monthly'] });
    expect(detached.body.products.items.map((p: { product: { id: string } }) => p.product.id)).toEqual(['annual']);
  });

  it('deletes an offering with its packages, its current mark and its assignments', async () => {
    const { a } = await setup();
    const pkg = (await app.call('POST', `${P}/offerings/${a}/packages`, { lookup_key: 'p', display_name: 'P' })).body.id;
    await app.call('POST', `${P}/customers`, { id: 'u1' });
    expect((await app.call('POST', `${P}/customers/u1/actions/assign_offering`, { offering_id: a })).status).toBe(200);
    expect((await app.call('GET', '/sim/customers/u1')).body.offering_id).toBe(a);
    expect((await app.call('DELETE', `${P}/offerings/${a}`)).body).toMatchObject({ object: 'offering', id: a });
    expect((await app.call('GET', `${P}/packages/${pkg}`)).body).toMatchObject({ type: 'resource_missing', param: 'package_id' });
    expect((await app.call('GET', '/sim/customers/u1')).body.offering_id).toBeNull();
    expect((await app.call('POST', `${P}/customers/nobody/actions/assign_offering`, { offering_id: null })).body).toMatchObject({ param: 'customer_id' });
  });

  it('refuses a lookup key taken in the project (offerings) or the offering (packages) with 409', async () => {
    const { a, b } = await setup();
    expect((await app.call('POST', `${P}/offerings`, { lookup_key: 'sale', display_name: 'x' })).body).toMatchObject({ type: 'resource_already_exists', param: 'lookup_key' });
    await app.call('POST', `${P}/offerings/${a}/packages`, { lookup_key: 'p', display_name: 'P' });
    expect((await app.call('POST', `${P}/offerings/${a}/packages`, { lookup_key: 'p', display_name: 'P' })).status).toBe(409);
    expect((await app.call('POST', `${P}/offerings/${b}/packages`, { lookup_key: 'p', display_name: 'P' })).status).toBe(201);
  });
});
