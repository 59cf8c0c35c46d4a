/** Contract drive: subscription operations, answering success and errors. */
import type { TestApp } from '../../helpers.js';

const P = '/v2/projects/proj1';

export async function driveSubscriptions(app: TestApp): Promise<void> {
  await app.call('POST', '/sim/products', { id: 'annual', type: 'subscription', period: 'P1Y', trial_period: 'P7D', price: 49.99 });
  const bought = await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'subber', product_id: 'monthly' });
  const trial = await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'subber', product_id: 'annual', trial: true });
  const id: string = bought.body?.subscription_id ?? 'missing';
  const trialId: string = trial.body?.subscription_id ?? 'missing';
  await app.call('POST', '/sim/clock/advance', { by: 'P40D' });
  await app.call('POST', `/sim/subscriptions/${trialId}/product_change`, { new_product_id: 'monthly', timing: 'next_renewal' });
  await app.call('GET', `${P}/customers/subber/subscriptions`);
  await app.call('GET', `${P}/customers/subber/subscriptions?environment=sandbox&limit=1`);
  await app.call('GET', `${P}/customers/subber/subscriptions?environment=staging`); // 400
  await app.call('GET', `${P}/customers/nobody/subscriptions`); // 404
  await app.call('GET', `${P}/subscriptions/${id}`);
  await app.call('GET', `${P}/subscriptions/${trialId}`);
  await app.call('GET', `${P}/subscriptions/sub_none`); // 404
  await app.call('GET', `${P}/subscriptions/${'s'.repeat(256)}`); // 400
  await app.call('GET', `${P}/subscriptions/${id}/transactions`);
  const firstPage = await app.call('GET', `${P}/subscriptions/${id}/transactions?limit=1`); // every renewal's, paged
  if (typeof firstPage.body?.next_page === 'string') await app.call('GET', firstPage.body.next_page);
  await app.call('GET', `${P}/subscriptions/sub_none/transactions`); // 404
  await app.call('GET', `${P}/subscriptions/${id}/entitlements`);
  await app.call('GET', `${P}/subscriptions/sub_none/entitlements`); // 404
  await app.call('POST', `${P}/subscriptions/${id}/actions/cancel`);
  await app.call('POST', `${P}/subscriptions/${id}/actions/cancel`); // 422 already cancelled
  const txs = (await app.call('GET', `${P}/subscriptions/${id}/transactions`)).body?.items ?? [];
  await app.call('POST', `${P}/subscriptions/${id}/transactions/${txs[0]?.id ?? 'none'}/actions/refund`); // 422 an earlier period's
  await app.call('POST', `${P}/subscriptions/${id}/transactions/nope/actions/refund`); // 404
  await app.call('POST', `${P}/subscriptions/${id}/transactions/${txs.at(-1)?.id ?? 'none'}/actions/refund`);
  await app.call('POST', `${P}/subscriptions/${trialId}/actions/refund`);
  await app.call('POST', `${P}/subscriptions/sub_none/actions/refund`); // 404
  await app.call('GET', `${P}/subscriptions/${id}`);
}
