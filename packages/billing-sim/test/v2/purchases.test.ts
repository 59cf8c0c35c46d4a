import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { P, startApp, type TestApp } from '../helpers.js';

let app: TestApp;
let txId: string;
beforeEach(async () => {
  app = await startApp({ projects: ['proj1', 'other'] });
  await app.call('POST', '/sim/products', { id: 'pack', type: 'consumable', price: 10 });
  await app.call('POST', `${P}/virtual_currencies`, { code: 'CRD', name: 'Credits', product_grants: [{ product_ids: ['pack'], amount: 500 }] });
  txId = (await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'pack' })).body.transaction_id;
});
afterEach(async () => {
  await app.close();
});

describe('API v2 one-time purchases', () => {
  it('answers the Purchase object', async () => {
    expect((await app.call('GET', `${P}/purchases/${txId}`)).body).toMatchObject({
      object: 'purchase', id: txId, customer_id: 'u1', product_id: 'pack', purchased_at: app.sim.now(), quantity: 1, status: 'owned',
      revenue_in_usd: { currency: 'USD', gross: 10, commission: 1.5, tax: 0, proceeds: 8.5 }, environment: 'sandbox', store_purchase_identifier: txId,
    });
  });

  it("lists a customer's purchases, filtered by environment", async () => {
    expect((await app.call('GET', `${P}/customers/u1/purchases`)).body.items.map((p: { id: string }) => p.id)).toEqual([txId]);
    expect((await app.call('GET', `${P}/customers/u1/purchases?environment=production`)).body.items).toEqual([]);
  });

  it('refunds: status refunded, revenue 0, CANCELLATION sent and the credits clawed back', async () => {
    const before = app.sim.eventCount();
    const res = await app.call('POST', `${P}/purchases/${txId}/actions/refund`);
    expect(res.body).toMatchObject({ status: 'refunded', revenue_in_usd: { gross: 0 } });
    expect(app.sim.eventsSince(before).map((e) => e.event.type)[0]).toBe('CANCELLATION');
    expect((await app.call('GET', `${P}/customers/u1/virtual_currencies?include_empty_balances=true`)).body.items[0].balance).toBe(0);
    const again = await app.call('POST', `${P}/purchases/${txId}/actions/refund`);
    expect(again).toMatchObject({ status: 422, body: { param: 'purchase_id' } });
  });

  it('finds a purchase by its store transaction id, in its project only', async () => {
    expect((await app.call('GET', `${P}/purchases?store_purchase_identifier=${txId}`)).body.items.map((p: { id: string }) => p.id)).toEqual([txId]);
    expect((await app.call('GET', `/v2/projects/other/purchases?store_purchase_identifier=${txId}`)).body.items).toEqual([]);
  });

  it('answers 404 naming purchase_id for an unknown purchase or one of another project', async () => {
    expect((await app.call('GET', `${P}/purchases/nope`)).body).toMatchObject({ type: 'resource_missing', param: 'purchase_id' });
    expect((await app.call('GET', `/v2/projects/other/purchases/${txId}`)).status).toBe(404);
    expect((await app.call('POST', `/v2/projects/other/purchases/${txId}/actions/refund`)).status).toBe(404);
  });
});

describe('a one-time purchase keeps the store, environment and offering it was bought with', () => {
  const play = { project_id: 'proj1', customer_id: 'u2', product_id: 'pack', store: 'PLAY_STORE', environment: 'PRODUCTION', presented_offering_id: 'ofrng_spring' };
  const kept = { store: 'play_store', environment: 'production', presented_offering_id: 'ofrng_spring' };

  it('in its Purchase object, found by id, by store id and by the environment filter', async () => {
    const id = (await app.call('POST', '/sim/purchases', play)).body.transaction_id;
    expect((await app.call('GET', `${P}/purchases/${id}`)).body).toMatchObject(kept);
    expect((await app.call('GET', `${P}/purchases?store_purchase_identifier=${id}`)).body.items).toMatchObject([kept]);
    expect((await app.call('GET', `${P}/customers/u2/purchases?environment=production`)).body.items).toMatchObject([{ id, ...kept }]);
    expect((await app.call('GET', `${P}/customers/u2/purchases?environment=sandbox`)).body.items).toEqual([]);
  });

  it('in its NON_RENEWING_PURCHASE webhook and in the CANCELLATION of its refund (its credits: in its environment)', async () => {
    const before = app.sim.eventCount();
    const id = (await app.call('POST', '/sim/purchases', play)).body.transaction_id;
    await app.call('POST', `${P}/purchases/${id}/actions/refund`);
    const events = app.sim.eventsSince(before).map((e) => e.event as Record<string, unknown>).filter((e) => e['transaction_id'] === id);
    const [grant, clawback] = events.filter((e) => e['type'] === 'VIRTUAL_CURRENCY_TRANSACTION');
    expect(events.filter((e) => e !== grant && e !== clawback).map((e) => [e['type'], e['store'], e['environment'], e['presented_offering_id']])).toEqual([
      ['NON_RENEWING_PURCHASE', 'PLAY_STORE', 'PRODUCTION', 'ofrng_spring'],
      ['CANCELLATION', 'PLAY_STORE', 'PRODUCTION', 'ofrng_spring'],
    ]);
    expect([grant?.['purchase_environment'], clawback?.['purchase_environment']]).toEqual(['PRODUCTION', 'PRODUCTION']);
  });

  it('in the /sim customer view, and after a transfer, whose webhook carries them', async () => {
    const id = (await app.call('POST', '/sim/purchases', play)).body.transaction_id;
    const view = (await app.call('GET', '/sim/customers/u2?project_id=proj1')).body;
    expect(view.purchases).toMatchObject([{ transaction_id: id, store: 'PLAY_STORE', environment: 'PRODUCTION', presented_offering_id: 'ofrng_spring' }]);
    await app.call('POST', `${P}/customers/u2/actions/transfer`, { target_customer_id: 'u3' });
    expect(app.sim.events().at(-1)?.event).toMatchObject({ type: 'TRANSFER', store: 'PLAY_STORE', environment: 'PRODUCTION' });
    expect((await app.call('GET', `${P}/purchases/${id}`)).body).toMatchObject({ customer_id: 'u3', ...kept });
  });
});
