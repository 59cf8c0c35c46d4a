/**
 * Contract drive: a purchase's entitlements, the Web Billing portal URL and the overview metrics
 * (needs the purchases, catalog and invoices drives: `packer`'s purchase, the `premium` entitlement,
 * `web_buyer`'s Web Billing subscription).
 */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function driveReports(app: TestApp): Promise<void> {
  const entitlement: string = (await app.call('GET', `${P}/entitlements`)).body?.items?.[0]?.id ?? 'missing';
  await app.call('POST', `${P}/entitlements/${entitlement}/actions/attach_products`, { product_ids: ['pack'] });
  const purchase: string = (await app.call('GET', `${P}/customers/packer/purchases`)).body?.items?.[0]?.id ?? 'missing';
  await app.call('GET', `${P}/purchases/${purchase}/entitlements`);
  await app.call('GET', `${P}/purchases/none/entitlements`); // 404
  const web: string = (await app.call('GET', `${P}/customers/web_buyer/subscriptions`)).body?.items?.[0]?.id ?? 'missing';
  const store: string = (await app.call('GET', `${P}/customers/buyer/subscriptions`)).body?.items?.[0]?.id ?? 'missing';
  await app.call('GET', `${P}/subscriptions/${web}/authenticated_management_url`);
  await app.call('GET', `${P}/subscriptions/${store}/authenticated_management_url`); // 400: not Web Billing
  await app.call('GET', `${P}/subscriptions/none/authenticated_management_url`); // 404
  await app.call('GET', `${P}/metrics/overview`);
  await app.call('GET', `${P}/metrics/overview?currency=EUR`); // 400: USD only
}

/** Contract drive: updating and deleting catalog configuration (an entitlement, a product nothing was bought with). */
export async function driveCatalogRemovals(app: TestApp): Promise<void> {
  const made = await app.call('POST', `${P}/entitlements`, { lookup_key: 'temporary', display_name: 'Temporary' });
  const id: string = made.body?.id ?? 'missing';
  await app.call('POST', `${P}/entitlements/${id}`, { display_name: 'Renamed' });
  await app.call('POST', `${P}/entitlements/${id}`, {}); // 400
  await app.call('DELETE', `${P}/entitlements/${id}`);
  await app.call('DELETE', `${P}/entitlements/${id}`); // 404
  await app.call('POST', `${P}/products`, { store_identifier: 'unsold', app_id: 'app_sim', type: 'consumable' });
  await app.call('DELETE', `${P}/products/unsold`);
  await app.call('DELETE', `${P}/products/monthly`); // 422: bought
  await app.call('DELETE', `${P}/products/unsold`); // 404
}

/** Contract drive: `expand` on products (their app) and entitlements (their products). */
export async function driveCatalogExpansions(app: TestApp): Promise<void> {
  const entitlement: string = (await app.call('GET', `${P}/entitlements?expand=items.product`)).body?.items?.[0]?.id ?? 'missing';
  await app.call('GET', `${P}/entitlements?expand=product`); // 400
  await app.call('GET', `${P}/entitlements/${entitlement}?expand=product`);
  await app.call('GET', `${P}/entitlements/${entitlement}?expand=items.product`); // 400
  await app.call('GET', `${P}/products?expand=items.app`);
  await app.call('GET', `${P}/products/monthly?expand=app`);
  await app.call('GET', `${P}/products/monthly?expand=store`); // 400
}
