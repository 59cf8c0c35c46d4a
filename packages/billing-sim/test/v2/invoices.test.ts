import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers.js';

let app: TestApp;
afterEach(async () => {
  await app?.close();
});

const P = '/v2/projects/proj_sim';

describe('API v2 invoices', () => {
  it('bills a Web Billing subscription once per paid period, paid when issued, with its product as the line', async () => {
    app = await startApp();
    await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M', price: 4.99, display_name: 'Monthly' });
    await app.call('POST', '/sim/purchases', { customer_id: 'w1', product_id: 'monthly', store: 'RC_BILLING' });
    await app.call('POST', '/sim/clock/advance', { by: 'P1M' });
    const list = await app.call('GET', `${P}/customers/w1/invoices`);
    expect(list.body.items).toHaveLength(2);
    const [first, second] = list.body.items;
    expect(first).toMatchObject({
      object: 'invoice',
      total_amount: { currency: 'USD', gross: 4.99, tax: 0 },
      line_items: [{ object: 'invoice.line_item', product_identifier: 'monthly', product_display_name: 'Monthly', product_duration: 'P1M', quantity: 1 }],
    });
    expect(first.paid_at).toBe(first.issued_at);
    expect(second.issued_at).toBeGreaterThan(first.issued_at);
    expect(first.id).toMatch(/^rcbin/);
  });

  it('has no invoices for purchases the store bills (the test store, the app stores)', async () => {
    app = await startApp();
    await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
    await app.call('POST', '/sim/purchases', { customer_id: 'a1', product_id: 'monthly' });
    await app.call('POST', '/sim/purchases', { customer_id: 'a2', product_id: 'monthly', store: 'APP_STORE' });
    for (const id of ['a1', 'a2']) expect((await app.call('GET', `${P}/customers/${id}/invoices`)).body).toMatchObject({ object: 'list', items: [], next_page: null });
  });

  it("redirects an invoice's file to a /sim URL on the simulator that answers the invoice", async () => {
    app = await startApp({ store: 'RC_BILLING' });
    await app.call('POST', '/sim/products', { id: 'gems', type: 'consumable' });
    await app.call('POST', '/sim/purchases', { customer_id: 'w2', product_id: 'gems' });
    const [invoice] = (await app.call('GET', `${P}/customers/w2/invoices`)).body.items;
    const file = await app.call('GET', `${P}/customers/w2/invoices/${invoice.id}/file`);
    expect(file.status).toBe(302);
    const location = new URL(file.headers.get('location') ?? '');
    expect(location.origin).toBe(app.url);
    expect((await app.call('GET', location.pathname + location.search)).body).toEqual(invoice);
    expect((await app.call('GET', `${P}/customers/w2/invoices/rcbin0/file`)).body).toMatchObject({ type: 'resource_missing', param: 'invoice_id' });
  });

  it("invoices a one-time purchase by its own store: Web Billing on a test-store simulator, not the App Store on a Web Billing one", async () => {
    app = await startApp();
    await app.call('POST', '/sim/products', { id: 'gems', type: 'consumable', price: 2 });
    const web = (await app.call('POST', '/sim/purchases', { customer_id: 'w4', product_id: 'gems', store: 'RC_BILLING' })).body.transaction_id;
    expect((await app.call('GET', `${P}/customers/w4/invoices`)).body.items).toMatchObject([{ id: `rcbin${web}`, total_amount: { gross: 2 } }]);
    await app.close();
    app = await startApp({ store: 'RC_BILLING' });
    await app.call('POST', '/sim/products', { id: 'gems', type: 'consumable' });
    await app.call('POST', '/sim/purchases', { customer_id: 'a4', product_id: 'gems', store: 'APP_STORE' });
    expect((await app.call('GET', `${P}/customers/a4/invoices`)).body.items).toEqual([]);
  });

  it('keeps an unpaid invoice for a failed charge while it is retried; a recovery bills it as a paid one', async () => {
    app = await startApp();
    await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
    const sub = (await app.call('POST', '/sim/purchases', { customer_id: 'w3', product_id: 'monthly', store: 'RC_BILLING' })).body.subscription_id;
    await app.call('POST', '/sim/clock/advance', { by: 'P10D' });
    await app.call('POST', `/sim/subscriptions/${sub}/billing_issue`, { grace_period: 'P3D' });
    const during = (await app.call('GET', `${P}/customers/w3/invoices`)).body.items;
    expect(during.map((i: { paid_at: number | null }) => i.paid_at === null)).toEqual([false, true]);
    await app.call('POST', '/sim/clock/advance', { by: 'P1D' });
    await app.call('POST', `/sim/subscriptions/${sub}/recover`);
    const after = (await app.call('GET', `${P}/customers/w3/invoices`)).body.items;
    expect(after).toHaveLength(2);
    expect(after.every((i: { paid_at: number | null }) => i.paid_at !== null)).toBe(true);
  });
});
