/** API v1 through both HTTP bindings (node:http and Express): preflights without a body, repeated query parameters. */
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers.js';

let app: TestApp;
afterEach(async () => {
  await app?.close();
});

describe.each(['node', 'express'] as const)('API v1 on the %s binding', (binding) => {
  it('answers a preflight 204 with no body, and reads every id of ?id=…&id=…', async () => {
    app = await startApp({}, {}, binding);
    await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M', price: 9.99 });
    await app.call('POST', '/sim/products', { id: 'pack', type: 'consumable', price: 4.99 });
    const pre = await fetch(`${app.url}/v1/subscribers/u1`, { method: 'OPTIONS', headers: { origin: 'http://localhost:1234', 'access-control-request-method': 'GET' } });
    expect(pre.status).toBe(204);
    expect(await pre.text()).toBe('');
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
    const products = await app.call('GET', '/rcbilling/v1/subscribers/u1/products?id=pack&id=monthly&id=nope', undefined, { authorization: 'Bearer test_x' });
    expect(products.body.product_details.map((p: { identifier: string }) => p.identifier)).toEqual(['pack', 'monthly']);
    expect(products.body.product_details[1].purchase_options.base_option.base).toEqual({ period_duration: 'P1M', cycle_count: 1, price: { amount_micros: 9_990_000, currency: 'USD' } });
    expect(products.body.product_details[0].purchase_options.base_option.base_price).toEqual({ amount_micros: 4_990_000, currency: 'USD' });
  });
});
