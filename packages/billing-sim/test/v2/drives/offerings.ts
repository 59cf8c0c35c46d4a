/** Contract drive: offerings, packages and their products, and assigning an offering (needs the catalog drive's products). */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function driveOfferings(app: TestApp): Promise<void> {
  const created = await app.call('POST', `${P}/offerings`, { lookup_key: 'default', display_name: 'Default', metadata: { theme: 'dark' } });
  await app.call('POST', `${P}/offerings`, { lookup_key: 'default', display_name: 'Again' }); // 409
  await app.call('POST', `${P}/offerings`, { lookup_key: 'x' }); // 400
  const id: string = created.body?.id ?? 'missing';
  const pkg = await app.call('POST', `${P}/offerings/${id}/packages`, { lookup_key: '$rc_monthly', display_name: 'Monthly', position: 1 });
  await app.call('POST', `${P}/offerings/${id}/packages`, { lookup_key: '$rc_monthly', display_name: 'Again' }); // 409
  await app.call('POST', `${P}/offerings/ofrngnone/packages`, { lookup_key: '$rc_annual', display_name: 'Annual' }); // 404
  const pkgId: string = pkg.body?.id ?? 'missing';
  await app.call('POST', `${P}/packages/${pkgId}/actions/attach_products`, { products: [{ product_id: 'monthly', eligibility_criteria: 'all' }] });
  await app.call('POST', `${P}/packages/${pkgId}/actions/attach_products`, { products: [{ product_id: 'pro_yearly', eligibility_criteria: 'all' }] }); // 422
  await app.call('POST', `${P}/packages/${pkgId}/actions/attach_products`, { products: [{ product_id: 'monthly' }] }); // 400
  await app.call('GET', `${P}/offerings`);
  await app.call('GET', `${P}/offerings?expand=items.package.product`);
  await app.call('GET', `${P}/offerings?expand=packages`); // 400
  await app.call('GET', `${P}/offerings/${id}?expand=package`);
  await app.call('GET', `${P}/offerings/${id}?expand=package.product`);
  await app.call('GET', `${P}/offerings/ofrngnone`); // 404
  await app.call('POST', `${P}/offerings/${id}`, { display_name: 'Default offering', is_current: true });
  await app.call('POST', `${P}/offerings/${id}`, { is_current: 'yes' }); // 400
  await app.call('GET', `${P}/offerings/${id}/packages?expand=items.product`);
  await app.call('GET', `${P}/offerings/ofrngnone/packages`); // 404
  await app.call('GET', `${P}/packages/${pkgId}`);
  await app.call('GET', `${P}/packages/${pkgId}?expand=product`);
  await app.call('GET', `${P}/packages/pkgenone`); // 404
  await app.call('POST', `${P}/packages/${pkgId}`, { display_name: 'Monthly plan', position: 2 });
  await app.call('POST', `${P}/packages/${pkgId}`, { position: 0 }); // 400
  await app.call('GET', `${P}/packages/${pkgId}/products`);
  await app.call('GET', `${P}/packages/pkgenone/products`); // 404
  await app.call('POST', `${P}/customers/buyer/actions/assign_offering`, { offering_id: id });
  await app.call('POST', `${P}/customers/buyer/actions/assign_offering`, { offering_id: 'ofrngnone' }); // 404
  await app.call('POST', `${P}/customers/buyer/actions/assign_offering`, { offering_id: null });
  await app.call('POST', `${P}/packages/${pkgId}/actions/detach_products`, { product_ids: ['monthly'] });
  await app.call('POST', `${P}/packages/${pkgId}/actions/detach_products`, { product_ids: [] }); // 400
  const spare = await app.call('POST', `${P}/offerings`, { lookup_key: 'spare', display_name: 'Spare' });
  const sparePkg = await app.call('POST', `${P}/offerings/${spare.body?.id ?? 'missing'}/packages`, { lookup_key: 'p', display_name: 'P' });
  await app.call('DELETE', `${P}/packages/${sparePkg.body?.id ?? 'missing'}`);
  await app.call('DELETE', `${P}/packages/${sparePkg.body?.id ?? 'missing'}`); // 404
  await app.call('DELETE', `${P}/offerings/${spare.body?.id ?? 'missing'}`);
  await app.call('DELETE', `${P}/offerings/${spare.body?.id ?? 'missing'}`); // 404
}
