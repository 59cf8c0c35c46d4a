/**
 * What the per-customer list routes (a customer's subscriptions, its one-time purchases) check
 * before listing: the path ids, the `environment` filter, and that the customer exists.
 */
import { fail } from '../machine/apiError.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { customerIn } from '../machine/queries.js';
import type { CustomerState, World } from '../machine/world.js';
import { errorResponse, type RouteInput, type SimResponse } from '../http/httpTypes.js';
import { checkIds, param } from './ids.js';

/** The customer to list for, or the error answer to send instead. */
export type CustomerListing =
  | { ok: true; world: World; projectId: string; customer: CustomerState; env: 'sandbox' | 'production' | undefined }
  | { ok: false; response: SimResponse };

/**
 * Given the simulator and a request to `/customers/:customer_id/...`, returns the customer and the
 * `environment` filter, or the answer: the ids' 400/404, 400 naming `environment` when it is neither
 * `sandbox` nor `production`, 404 naming `customer_id` for an unknown customer.
 */
export function customerListing(sim: BillingSimulator, input: RouteInput): CustomerListing {
  const bad = checkIds(sim, input);
  if (bad !== null) return { ok: false, response: bad };
  const env = input.query['environment'];
  if (env !== undefined && env !== 'sandbox' && env !== 'production') {
    return { ok: false, response: errorResponse(fail('parameter_error', 'environment must be sandbox or production', 'environment').error) };
  }
  const projectId = param(input, 'project_id');
  const world = sim.world();
  const customer = customerIn(world, projectId, param(input, 'customer_id'));
  if (customer === undefined) {
    return { ok: false, response: errorResponse(fail('resource_missing', `Customer ${param(input, 'customer_id')} not found`, 'customer_id').error) };
  }
  return { ok: true, world, projectId, customer, env };
}
