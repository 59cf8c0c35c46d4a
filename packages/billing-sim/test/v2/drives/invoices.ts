/** Contract drive: a customer's invoices (a Web Billing purchase has them) and an invoice's file. */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function driveInvoices(app: TestApp): Promise<void> {
  await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'web_buyer', product_id: 'monthly', store: 'RC_BILLING' });
  const list = await app.call('GET', `${P}/customers/web_buyer/invoices`);
  await app.call('GET', `${P}/customers/buyer/invoices`); // empty: not Web Billing
  await app.call('GET', `${P}/customers/web_buyer/invoices?limit=500`); // 400
  await app.call('GET', `${P}/customers/nobody/invoices`); // 404
  const id: string = list.body?.items?.[0]?.id ?? 'missing';
  await app.call('GET', `${P}/customers/web_buyer/invoices/${id}/file`);
  await app.call('GET', `${P}/customers/web_buyer/invoices/rcbinnone/file`); // 404
  const sub: string = (await app.call('GET', `${P}/customers/web_buyer/subscriptions`)).body?.items?.[0]?.id ?? 'missing';
  await app.call('POST', `/sim/subscriptions/${sub}/billing_issue`, { grace_period: 'P3D' });
  await app.call('GET', `${P}/customers/web_buyer/invoices`); // with an unpaid one (paid_at null)
}
