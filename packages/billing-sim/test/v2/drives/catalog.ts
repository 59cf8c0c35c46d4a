/** Contract drive: product and entitlement operations, answering success and errors. */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function driveCatalog(app: TestApp): Promise<void> {
  await app.call('POST', `${P}/products`, { store_identifier: 'pro_yearly', app_id: 'app_sim', type: 'subscription', subscription: { duration: 'P1Y' }, display_name: 'Pro yearly' });
  await app.call('POST', `${P}/products`, { store_identifier: 'gems', app_id: 'app_sim', type: 'consumable', display_name: null, title: null });
  await app.call('POST', `${P}/products`, { store_identifier: 'gems', app_id: 'app_sim', type: 'consumable' }); // 409
  await app.call('POST', `${P}/products`, { store_identifier: 'pro_5d', app_id: 'app_sim', type: 'subscription', subscription: { duration: 'P5D' } }); // 400
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

/** Contract drive: a customer's entitlements (needs the catalog drive's `premium` entitlement). */
export async function driveCustomerEntitlements(app: TestApp): Promise<void> {
  const list = await app.call('GET', `${P}/entitlements`);
  const id: string = list.body?.items?.[0]?.id ?? 'missing';
  await app.call('POST', `${P}/customers/buyer/actions/grant_entitlement`, { entitlement_id: id, expires_at: 4_102_444_800_000 });
  await app.call('POST', `${P}/customers/buyer/actions/grant_entitlement`, { entitlement_id: id, expires_at: 0 }); // 400 past
  await app.call('POST', `${P}/customers/buyer/actions/grant_entitlement`, { entitlement_id: 'entlnone', expires_at: 4_102_444_800_000 }); // 404
  await app.call('GET', `${P}/customers/buyer/active_entitlements`);
  await app.call('GET', `${P}/customers/buyer?expand=attributes`);
  await app.call('GET', `${P}/customers/buyer?expand=everything`); // 400
  await app.call('GET', `${P}/customers/nobody/active_entitlements`); // 404
  await app.call('POST', `${P}/customers/buyer/actions/revoke_granted_entitlement`, { entitlement_id: id });
  await app.call('POST', `${P}/customers/buyer/actions/revoke_granted_entitlement`, { entitlement_id: id }); // 404 no grant left
  await app.call('POST', `${P}/customers/buyer/actions/revoke_granted_entitlement`, {}); // 400
}
