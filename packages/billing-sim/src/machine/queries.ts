/** Read-only questions about a world, for the HTTP routes, scenarios and tests. Nothing here changes a world. */
import { beginDraft, type SimContext } from './context.js';
import { pmapGet } from './persistentMap.js';
import { forEachCustomer, storedCustomer } from './worldCustomers.js';
import type { CustomerState, SubscriptionState, World } from './world.js';

/**
 * Given a world, returns a read-only view for the operations' read functions (`listBalances`,
 * `getCurrency`, `customerView`…). A view is never committed, so reading through it changes nothing.
 *
 * @example
 * listBalances(readView(sim.world()), 'proj1', 'u1', true);
 */
export const readView = (world: World): SimContext => beginDraft(world);

/**
 * Given a world, a project and a customer id, returns the customer, or undefined.
 *
 * @example
 * customerIn(world, 'proj1', 'u1')?.ledger;
 */
export function customerIn(world: World, projectId: string, customerId: string): CustomerState | undefined {
  // What `peekCustomer` reads through a fresh view, without making one (a draft and its event log per read).
  const project = pmapGet(world.projects, projectId);
  return project === undefined ? undefined : storedCustomer(world, project, customerId);
}

/**
 * Given a world and a project, returns its customers in creation order.
 *
 * @example
 * customersOf(world, 'proj1').map((c) => c.id);
 */
export function customersOf(world: World, projectId: string): CustomerState[] {
  const out: CustomerState[] = [];
  forEachCustomer(world, projectId, (customer) => out.push(customer));
  return out;
}

/**
 * Given a world and a subscription id, returns the subscription and its customer, or undefined.
 *
 * @example
 * subscriptionIn(world, 'sub_1')?.sub.status; // 'active'
 */
export function subscriptionIn(world: World, id: string): { customer: CustomerState; sub: SubscriptionState } | undefined {
  const owner = pmapGet(world.subscriptions, id);
  const customer = owner === undefined ? undefined : customerIn(world, owner.project_id, owner.customer_id);
  const sub = customer?.subscriptions.find((s) => s.id === id);
  return customer === undefined || sub === undefined ? undefined : { customer, sub };
}
