/** Contract drive: customer operations, answering success and errors. */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function driveCustomers(app: TestApp): Promise<void> {
  await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'buyer', product_id: 'monthly' });
  await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'leaver', product_id: 'monthly' });
  await app.call('GET', `${P}/customers/buyer`);
  await app.call('GET', `${P}/customers/u1`);
  await app.call('GET', `${P}/customers/nobody`); // 404
  await app.call('GET', `${P}/customers/${'x'.repeat(1501)}`); // 400
  await app.call('POST', `${P}/customers/buyer/attributes`, { attributes: [{ name: '$email', value: 'b@example.test' }, { name: 'plan_note', value: null }] });
  await app.call('POST', `${P}/customers/buyer/attributes`, { attributes: [{ name: '$nope', value: 'x' }] }); // 400
  await app.call('POST', `${P}/customers/nobody/attributes`, { attributes: [{ name: '$email', value: 'x@y.test' }] }); // 404
  await app.call('GET', `${P}/customers/buyer/attributes`);
  await app.call('GET', `${P}/customers/nobody/attributes`); // 404
  await app.call('GET', `${P}/customers`);
  await app.call('GET', `${P}/customers?limit=1`);
  await app.call('GET', `${P}/customers?search=b%40example.test`);
  await app.call('GET', `${P}/customers?limit=0`); // 400
  await app.call('GET', `${P}/customers/buyer/aliases`);
  await app.call('GET', `${P}/customers/nobody/aliases`); // 404
  await app.call('POST', `${P}/customers/leaver/actions/transfer`, { target_customer_id: 'heir' });
  await app.call('POST', `${P}/customers/leaver/actions/transfer`, { target_customer_id: 'heir' }); // 422 nothing left
  await app.call('POST', `${P}/customers/leaver/actions/transfer`, {}); // 400
  await app.call('POST', `${P}/customers/nobody/actions/transfer`, { target_customer_id: 'heir' }); // 404
  await app.call('DELETE', `${P}/customers/leaver`);
  await app.call('DELETE', `${P}/customers/leaver`); // 404
}
