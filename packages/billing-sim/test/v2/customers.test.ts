import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { P, startApp, type TestApp } from '../helpers.js';

let app: TestApp;
beforeEach(async () => {
  app = await startApp();
  await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
  for (const id of ['ann', 'bob', 'cy']) await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: id, product_id: 'monthly' });
});
afterEach(async () => {
  await app.close();
});

const ids = (body: { items: { id: string }[] }) => body.items.map((c) => c.id);

describe('API v2 customers', () => {
  it('lists customers in creation order, paged', async () => {
    const first = (await app.call('GET', `${P}/customers?limit=2`)).body;
    expect(ids(first)).toEqual(['ann', 'bob']);
    expect(ids((await app.call('GET', first.next_page)).body)).toEqual(['cy']);
  });

  it('searches by exact $email, and next_page keeps the search', async () => {
    await app.call('POST', `${P}/customers/bob/attributes`, { attributes: [{ name: '$email', value: 'same@example.test' }] });
    await app.call('POST', `${P}/customers/cy/attributes`, { attributes: [{ name: '$email', value: 'same@example.test' }] });
    await app.call('POST', `${P}/customers/ann/attributes`, { attributes: [{ name: '$email', value: 'SAME@example.test' }] });
    const page = (await app.call('GET', `${P}/customers?search=same%40example.test&limit=1`)).body;
    expect(ids(page)).toEqual(['bob']);
    expect(page.next_page).toContain('search=same%40example.test');
    expect(ids((await app.call('GET', page.next_page)).body)).toEqual(['cy']);
  });

  it('sets and lists attributes; a later set updates the value and its time; null deletes one, an empty string is a value', async () => {
    await app.call('POST', `${P}/customers/ann/attributes`, { attributes: [{ name: '$email', value: 'a@x.test' }, { name: 'tier', value: 'gold' }] });
    await app.call('POST', '/sim/clock/advance', { by: 'PT1H' });
    const res = await app.call('POST', `${P}/customers/ann/attributes`, { attributes: [{ name: 'tier', value: null }, { name: 'never_set', value: null }, { name: 'note', value: '' }] });
    expect(res.body.items).toEqual([
      { object: 'customer.attribute', name: '$email', value: 'a@x.test', updated_at: app.sim.now() - 3_600_000 },
      { object: 'customer.attribute', name: 'note', value: '', updated_at: app.sim.now() },
    ]);
    expect((await app.call('GET', `${P}/customers/ann/attributes`)).body.items).toEqual(res.body.items);
  });

  it('an $email deleted with null leaves expand=attributes and no longer matches the search', async () => {
    await app.call('POST', `${P}/customers/bob/attributes`, { attributes: [{ name: '$email', value: 'b@x.test' }] });
    expect(ids((await app.call('GET', `${P}/customers?search=b%40x.test`)).body)).toEqual(['bob']);
    await app.call('POST', `${P}/customers/bob/attributes`, { attributes: [{ name: '$email', value: null }] });
    expect(ids((await app.call('GET', `${P}/customers?search=b%40x.test`)).body)).toEqual([]);
    expect((await app.call('GET', `${P}/customers/bob?expand=attributes`)).body.attributes.items).toEqual([]);
  });

  it.each([
    [{ attributes: [] }, 'attributes'],
    [{ attributes: [{ name: '$unknownReserved', value: 'x' }] }, 'attributes.0.name'],
    [{ attributes: [{ name: '9lives', value: 'x' }] }, 'attributes.0.name'],
    [{ attributes: [{ name: 'ok', value: 'x'.repeat(501) }] }, 'attributes.0.value'],
  ])('refuses attributes %j with 400 naming the field', async (body, param) => {
    expect(await app.call('POST', `${P}/customers/ann/attributes`, body)).toMatchObject({ status: 400, body: { param } });
  });

  it('lists the customer id as its alias', async () => {
    expect((await app.call('GET', `${P}/customers/ann/aliases`)).body.items).toEqual([{ object: 'customer.alias', id: 'ann', created_at: app.sim.now() }]);
  });

  it('deletes a customer with its subscriptions and attributes; its renewals stop', async () => {
    await app.call('POST', `${P}/customers/ann/attributes`, { attributes: [{ name: '$email', value: 'a@x.test' }] });
    const subs = (await app.call('GET', `${P}/customers/ann/subscriptions`)).body.items;
    expect((await app.call('DELETE', `${P}/customers/ann`)).body).toEqual({ object: 'customer', id: 'ann', deleted_at: app.sim.now() });
    expect((await app.call('GET', `${P}/customers/ann`)).status).toBe(404);
    expect((await app.call('GET', `${P}/subscriptions/${subs[0].id}`)).status).toBe(404);
    expect(ids((await app.call('GET', `${P}/customers`)).body)).toEqual(['bob', 'cy']);
    const before = app.sim.eventCount();
    await app.call('POST', '/sim/clock/advance', { by: 'P1M' });
    const renewed = app.sim.eventsSince(before).filter((e) => e.event.type === 'RENEWAL').map((e) => (e.event as { app_user_id?: string }).app_user_id);
    expect(renewed.sort()).toEqual(['bob', 'cy']);
    // The id can be used again: a new customer, with no attributes.
    await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'ann', product_id: 'monthly' });
    expect((await app.call('GET', `${P}/customers/ann/attributes`)).body.items).toEqual([]);
  });

  it('transfers subscriptions to another customer with a TRANSFER webhook and answers both customers', async () => {
    const sub = (await app.call('GET', `${P}/customers/ann/subscriptions`)).body.items[0].id;
    const res = await app.call('POST', `${P}/customers/ann/actions/transfer`, { target_customer_id: 'dee' });
    expect(res.body).toMatchObject({ source_customer: { object: 'customer', id: 'ann' }, target_customer: { object: 'customer', id: 'dee' } });
    expect((await app.call('GET', `${P}/subscriptions/${sub}`)).body.customer_id).toBe('dee');
    expect(app.sim.events().at(-1)?.event.type).toBe('TRANSFER');
    expect((await app.call('POST', `${P}/customers/ann/actions/transfer`, { target_customer_id: 'ann' })).status).toBe(400);
  });
});
