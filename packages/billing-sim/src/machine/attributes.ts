/**
 * Customer attributes (`$email`, `$displayName`, custom names): what API v2's attribute routes set
 * and list, and what `GET /customers?search=` matches (`$email`, exactly).
 */
import { fail, ok, type Result } from './apiError.js';
import { peekCustomer, removeCustomer, type SimContext } from './context.js';
import { pmapGet, pmapRemove, pmapSet } from './persistentMap.js';
import type { World, CustomerAttributes } from './world.js';

/** The key of a customer's attributes in the world. */
export const attributeKey = (projectId: string, customerId: string): string => `${projectId}\u0000${customerId}`;

/**
 * Given a world, a project and a customer, returns its attributes (empty when none).
 *
 * @example
 * attributesOf(world, 'proj1', 'u1').get('$email')?.value;
 */
export const attributesOf = (world: World, projectId: string, customerId: string): CustomerAttributes =>
  pmapGet(world.api.attributes, attributeKey(projectId, customerId)) ?? new Map();

/** One attribute to set: a null value deletes it; `updated_at` (default now) loses to a newer stored change. */
export interface AttributeInput {
  name: string;
  value: string | null;
  updated_at?: number | undefined;
}

/**
 * Sets attributes of an existing customer (404 otherwise). A null value deletes the attribute, as the
 * document says ("Use null to delete the attribute"): it leaves the lists and no longer matches a
 * search; set again later, it comes last. An empty string is a value like any other (API v2 deletes
 * with null only; API v1's routes turn an empty string into null, as its document says). A change
 * whose `updated_at` is older than the stored one's is skipped (API v1's conflict rule).
 */
export function setAttributes(ctx: SimContext, projectId: string, customerId: string, attributes: readonly AttributeInput[]): Result<CustomerAttributes> {
  if (peekCustomer(ctx, projectId, customerId) === undefined) return fail('resource_missing', `Customer ${customerId} not found`, 'customer_id');
  const key = attributeKey(projectId, customerId);
  const next = new Map(pmapGet(ctx.api.attributes, key) ?? []);
  for (const a of attributes) {
    const at = a.updated_at ?? ctx.now;
    if ((next.get(a.name)?.updated_at ?? -Infinity) > at) continue;
    if (a.value === null) next.delete(a.name);
    else next.set(a.name, { value: a.value, updated_at: at });
  }
  ctx.api = { ...ctx.api, attributes: pmapSet(ctx.api.attributes, key, next) };
  return ok(next);
}

/** Deletes a customer, its subscriptions, purchases, balances, attributes, granted entitlements and assigned offering; 404 when unknown. */
export function deleteCustomer(ctx: SimContext, projectId: string, customerId: string): Result<{ object: 'customer'; id: string; deleted_at: number }> {
  if (peekCustomer(ctx, projectId, customerId) === undefined) return fail('resource_missing', `Customer ${customerId} not found`, 'customer_id');
  removeCustomer(ctx, projectId, customerId);
  const key = attributeKey(projectId, customerId);
  ctx.api = { ...ctx.api, attributes: pmapRemove(ctx.api.attributes, key), granted: pmapRemove(ctx.api.granted, key), offering_overrides: pmapRemove(ctx.api.offering_overrides, key) };
  return ok({ object: 'customer', id: customerId, deleted_at: ctx.now });
}
