/**
 * Customers created through API v2 (`POST /customers`): a customer with no purchases yet, first
 * seen now, with its attributes. Otherwise customers come to exist with their first purchase.
 */
import { fail, ok, type Result } from './apiError.js';
import { setAttributes } from './attributes.js';
import { customerOf, peekCustomer, type SimContext } from './context.js';
import type { CustomerState } from './world.js';

/**
 * Creates a customer of a project with the given attributes; 409 `resource_already_exists` naming
 * `id` when the project has it.
 */
export function createCustomer(
  ctx: SimContext,
  projectId: string,
  customerId: string,
  attributes: readonly { name: string; value: string }[],
): Result<CustomerState> {
  if (peekCustomer(ctx, projectId, customerId) !== undefined) return fail('resource_already_exists', `Customer ${customerId} already exists`, 'id');
  const customer = customerOf(ctx, projectId, customerId, true);
  if (customer === undefined) return fail('server_error', 'the customer was not created');
  if (attributes.length > 0) {
    const set = setAttributes(ctx, projectId, customerId, attributes);
    if (!set.ok) return set;
  }
  return ok(customer);
}
