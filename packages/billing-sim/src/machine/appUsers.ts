/**
 * App users as the SDKs know them (API v1): a customer is got or created by its app user id, seen by
 * an app (an `X-Platform` request moves `last_seen`), and identified under another id (`logIn`).
 */
import { fail, ok, type Result } from './apiError.js';
import { customerOf, peekCustomer, type SimContext } from './context.js';
import { transfer } from './lifecycle.js';
import type { CustomerState } from './world.js';

/** The prefix of the ids the SDKs make up for a user the app has not identified. */
export const ANONYMOUS_PREFIX = '$RCAnonymousID:';

/** A customer, and whether this request created it. */
export interface AppUser {
  customer: CustomerState;
  created: boolean;
}

/**
 * Gets a customer by app user id, creating it (first seen now) when the project has none; `seen`
 * (an app asked) moves its `last_seen` to now.
 */
export function getOrCreateCustomer(ctx: SimContext, projectId: string, customerId: string, seen: boolean): Result<AppUser> {
  const known = peekCustomer(ctx, projectId, customerId);
  if (known !== undefined && !seen) return ok({ customer: known, created: false });
  const customer = customerOf(ctx, projectId, customerId, true);
  if (customer === undefined) return fail('server_error', 'the customer was not created');
  if (seen) customer.last_seen_at = ctx.now;
  return ok({ customer, created: known === undefined });
}

/**
 * Identifies the app's current user as `newId` (the SDKs' `logIn` / `identifyUser`): `created` when
 * the project had no customer `newId`. An anonymous user's purchases move to a new id with them (one
 * TRANSFER webhook), so what was bought before logging in stays the user's.
 */
export function identifyAppUser(ctx: SimContext, projectId: string, currentId: string, newId: string): Result<AppUser> {
  if (currentId === newId) return getOrCreateCustomer(ctx, projectId, newId, true);
  if (peekCustomer(ctx, projectId, newId) !== undefined) return getOrCreateCustomer(ctx, projectId, newId, true);
  const current = peekCustomer(ctx, projectId, currentId);
  const owns = current !== undefined && (current.subscriptions.length > 0 || current.purchases.length > 0);
  if (owns && currentId.startsWith(ANONYMOUS_PREFIX)) {
    const moved = transfer(ctx, projectId, currentId, newId);
    if (!moved.ok) return moved;
    const customer = customerOf(ctx, projectId, newId, false);
    return customer === undefined ? fail('server_error', 'the customer was not created') : ok({ customer, created: true });
  }
  return getOrCreateCustomer(ctx, projectId, newId, true);
}
