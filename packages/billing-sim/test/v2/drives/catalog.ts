/** Contract drive: product and entitlement operations, answering success and errors. */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function driveCatalog(app: TestApp): Promise<void> {
  await app.call('POST', `${P}/products`, { store_identifier: 'pro_yearly', app_id: 'app_sim', type: 'subscription', subscription: { duration: 'P1Y' }, display_name: 'Pro yearly' });
  await app.call('POST', `${P}/products`, { store_identifier: 'gems', app_id: 'app_sim', type: 'consumable' });
  await app.call('POST', `${P}/products`, { store_identifier: 'gems', app_id: 'app_sim', type: 'consumable' }); // 409
  await app.call('POST', `${P}/products`, { store_identifier: 'life', app_id: 'app_sim', type: 'non_consumable' }); // 422
  await app.call('POST', `${P}/products`, { app_id: 'app_sim', type: 'consumable' }); // 400
  await app.call('GET', `${P}/products`);
  await app.call('GET', `${P}/products?limit=0`); // 400
  await app.call('GET', `${P}/products/pro_yearly`);
  await app.call('GET', `${P}/products/none`); // 404
  const created = await app.call('POST', `${P}/entitlements`, { lookup_key: 'premium', display_name: 'Premium' });
  await app.call('POST', `${P}/entitlements`, { lookup_key: 'premium', display_name: 'Again' }); // 409
  await app.call('POST', `${P}/entitlements`, { lookup_key: '' }); // 400
  const id: string = created.body?.id ?? 'missing';
  await app.call('GET', `${P}/entitlements`);
  await app.call('GET', `${P}/entitlements?starting_after=nope`); // 400
  await app.call('GET', `${P}/entitlements/${id}`);
  await app.call('GET', `${P}/entitlements/entlnone`); // 404
  await app.call('POST', `${P}/entitlements/${id}/actions/attach_products`, { product_ids: ['monthly', 'pro_yearly'] });
  await app.call('POST', `${P}/entitlements/${id}/actions/attach_products`, { product_ids: ['ghost'] }); // 404
  await app.call('GET', `${P}/entitlements/${id}/products`);
  await app.call('GET', `${P}/entitlements/entlnone/products`); // 404
  await app.call('GET', `${P}/subscriptions/${(await app.call('GET', `${P}/customers/buyer/subscriptions`)).body?.items?.[0]?.id ?? 'none'}`);
  await app.call('POST', `${P}/entitlements/${id}/actions/detach_products`, { product_ids: ['pro_yearly'] });
  await app.call('POST', `${P}/entitlements/${id}/actions/detach_products`, { product_ids: [] }); // 400
}
