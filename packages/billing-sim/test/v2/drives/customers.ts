/** Contract drive: customer operations, answering success and errors. */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function driveCustomers(app: TestApp): Promise<void> {
  await app.call('POST', '/sim/purchases', { customer_id: 'buyer', product_id: 'monthly' });
  await app.call('GET', `${P}/customers/buyer`);
  await app.call('GET', `${P}/customers/u1`);
  await app.call('GET', `${P}/customers/nobody`); // 404
  await app.call('GET', `${P}/customers/${'x'.repeat(1501)}`); // 400
}
