/** Contract drive: every virtual currency and balance operation, answering success and errors. */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function driveVirtualCurrencies(app: TestApp): Promise<void> {
  const VC = `${P}/virtual_currencies`;
  await app.call('POST', VC, { code: 'GLD', name: 'Gold', description: 'Shiny' });
  await app.call('POST', VC, { code: 'SLV', name: 'Silver', product_grants: [{ product_ids: ['monthly'], amount: 5 }] });
  await app.call('POST', VC, { code: 'GLD', name: 'Again' }); // 409
  await app.call('POST', VC, { code: 'bad code!', name: 'x' }); // 400
  await app.call('GET', VC);
  await app.call('GET', `${VC}?limit=1`);
  await app.call('GET', `${VC}?limit=0`); // 400
  await app.call('GET', `${VC}/GLD`);
  await app.call('GET', `${VC}/NOPE`); // 404
  await app.call('POST', `${VC}/GLD`, { description: 'Shinier' });
  await app.call('POST', `${VC}/NOPE`, { name: 'x' }); // 404
  await app.call('POST', `${VC}/GLD`, { name: '' }); // 400

  const C = `${P}/customers/u1`;
  await app.call('POST', `${C}/virtual_currencies/transactions`, { adjustments: { GLD: 100, SLV: 40 }, reference: 'r1' });
  await app.call('POST', `${C}/virtual_currencies/transactions?include_empty_balances=true`, { adjustments: { SLV: -40 } });
  await app.call('POST', `${C}/virtual_currencies/transactions`, { adjustments: { GLD: -1000 } }); // 422
  await app.call('POST', `${C}/virtual_currencies/transactions`, { adjustments: {} }); // 400
  await app.call('POST', `${C}/virtual_currencies/transactions`, { adjustments: { XYZ: 1 } }); // 404
  await app.call('POST', `${C}/virtual_currencies/transactions`, { adjustments: { GLD: 1 } }, { 'Idempotency-Key': 'k1' });
  await app.call('POST', `${C}/virtual_currencies/transactions`, { adjustments: { GLD: 2 } }, { 'Idempotency-Key': 'k1' }); // 409
  await app.call('POST', `${C}/virtual_currencies/update_balance`, { adjustments: { GLD: -1 } });
  await app.call('POST', `${C}/virtual_currencies/update_balance`, { adjustments: { GLD: -1_000_000 } }); // 422
  await app.call('GET', `${C}/virtual_currencies`);
  const page = await app.call('GET', `${C}/virtual_currencies?include_empty_balances=true&limit=1`);
  if (typeof page.body?.next_page === 'string') await app.call('GET', page.body.next_page);
  await app.call('GET', `${P}/customers/ghost/virtual_currencies`); // 404
  await app.call('GET', `${C}/virtual_currencies?include_empty_balances=maybe`); // 400

  await app.call('DELETE', `${VC}/SLV`);
  await app.call('DELETE', `${VC}/SLV`); // 404
}
