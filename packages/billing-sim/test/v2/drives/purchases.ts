/** Contract drive: one-time purchase operations, answering success and errors. */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function drivePurchases(app: TestApp): Promise<void> {
  await app.call('POST', '/sim/products', { id: 'pack', type: 'consumable', price: 4.99 });
  const bought = await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'packer', product_id: 'pack' });
  const id: string = bought.body?.transaction_id ?? 'missing';
  // A Play purchase in production from an offering: its Purchase object carries them (and the filter finds it).
  await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'packer', product_id: 'pack', store: 'PLAY_STORE', environment: 'PRODUCTION', presented_offering_id: 'ofrngspring' });
  await app.call('GET', `${P}/customers/packer/purchases`);
  await app.call('GET', `${P}/customers/packer/purchases?environment=production`);
  await app.call('GET', `${P}/customers/packer/purchases?environment=live`); // 400
  await app.call('GET', `${P}/customers/nobody/purchases`); // 404
  await app.call('GET', `${P}/purchases/${id}`);
  await app.call('GET', `${P}/purchases/none`); // 404
  await app.call('POST', `${P}/purchases/${id}/actions/refund`);
  await app.call('POST', `${P}/purchases/${id}/actions/refund`); // 422 already refunded
}

/** Contract drive: the store-id searches of subscriptions and purchases. */
export async function driveSearches(app: TestApp): Promise<void> {
  const sub = (await app.call('GET', `${P}/customers/subber/subscriptions`)).body?.items?.[0];
  await app.call('GET', `${P}/subscriptions?store_subscription_identifier=${sub?.store_subscription_identifier ?? 'none'}`);
  await app.call('GET', `${P}/subscriptions`); // 400
  const purchase = (await app.call('GET', `${P}/customers/packer/purchases`)).body?.items?.[0];
  await app.call('GET', `${P}/purchases?store_purchase_identifier=${purchase?.id ?? 'none'}`);
  await app.call('GET', `${P}/purchases?store_purchase_identifier=nothing`);
  await app.call('GET', `${P}/purchases`); // 400
}
