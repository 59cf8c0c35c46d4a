/**
 * Where a world keeps its customers: one persistent vector of every project's customers by `seq`
 * (creation order), and per project a map of customer ids to seqs. The two reads every layer uses.
 */
import { pmapGet } from './persistentMap.js';
import { pvecForEach, pvecGet } from './persistentVector.js';
import type { CustomerState, ProjectState, World } from './world.js';

/**
 * Given a world, one of its projects and a customer id, returns the customer as the world holds it,
 * or undefined.
 *
 * @example
 * storedCustomer(world, project, 'u1')?.ledger;
 */
export function storedCustomer(world: World, project: ProjectState, customerId: string): CustomerState | undefined {
  const seq = pmapGet(project.customer_seqs, customerId);
  return seq === undefined ? undefined : pvecGet(world.customers, seq);
}

/**
 * Given a world, a project id and a function, calls it with each customer of the project, in
 * creation order.
 *
 * @example
 * forEachCustomer(world, 'proj1', (c) => console.log(c.id));
 */
export function forEachCustomer(world: World, projectId: string, fn: (customer: CustomerState) => void): void {
  pvecForEach(world.customers, (customer) => {
    if (customer.project_id === projectId) fn(customer);
  });
}
