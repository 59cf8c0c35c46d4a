/**
 * Entitlements granted to a customer through API v2 (`grant_entitlement`), outside any purchase, and
 * which entitlements a customer has now: granted ones, and those its live subscriptions and owned
 * one-time purchases unlock.
 */
import { fail, ok, type Result } from './apiError.js';
import { attributeKey } from './attributes.js';
import { peekCustomer, type SimContext } from './context.js';
import { entitlementsForProduct, findEntitlement } from './entitlements.js';
import { pmapGet, pmapSet } from './persistentMap.js';
import type { CustomerState, World } from './state.js';

/** One grant: which entitlement, until when, since when. */
export interface GrantedEntitlement {
  entitlement_id: string;
  expires_at: number;
  granted_at: number;
}

/** An entitlement a customer has now, and until when (null: no end). */
export interface ActiveEntitlement {
  entitlement_id: string;
  expires_at: number | null;
}

/** Grants a customer an entitlement until `expiresAt` (a later grant of the same one replaces it). */
export function grantEntitlement(ctx: SimContext, projectId: string, customerId: string, entitlementId: string, expiresAt: number): Result<CustomerState> {
  const customer = peekCustomer(ctx, projectId, customerId);
  if (customer === undefined) return fail('resource_missing', `Customer ${customerId} not found`, 'customer_id');
  const entitlement = findEntitlement(ctx, projectId, entitlementId);
  if (!entitlement.ok) return entitlement;
  if (expiresAt <= ctx.now) return fail('parameter_error', 'expires_at must be in the future', 'expires_at');
  const key = attributeKey(projectId, customerId);
  const kept = (pmapGet(ctx.api.granted, key) ?? []).filter((g) => g.entitlement_id !== entitlementId);
  ctx.api = { ...ctx.api, granted: pmapSet(ctx.api.granted, key, [...kept, { entitlement_id: entitlementId, expires_at: expiresAt, granted_at: ctx.now }]) };
  return ok(customer);
}

/** Revokes a granted entitlement (404 naming `entitlement_id` when the customer has no such grant). */
export function revokeGrantedEntitlement(ctx: SimContext, projectId: string, customerId: string, entitlementId: string): Result<CustomerState> {
  const customer = peekCustomer(ctx, projectId, customerId);
  if (customer === undefined) return fail('resource_missing', `Customer ${customerId} not found`, 'customer_id');
  const key = attributeKey(projectId, customerId);
  const grants = pmapGet(ctx.api.granted, key) ?? [];
  if (!grants.some((g) => g.entitlement_id === entitlementId && g.expires_at > ctx.now)) {
    return fail('resource_missing', `Customer ${customerId} has no granted entitlement ${entitlementId}`, 'entitlement_id');
  }
  ctx.api = { ...ctx.api, granted: pmapSet(ctx.api.granted, key, grants.filter((g) => g.entitlement_id !== entitlementId)) };
  return ok(customer);
}

/** The later of two ends, null (no end) winning. */
const later = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.max(a, b));

/**
 * Given a world and a customer, returns the entitlements it has at the world's time, by entitlement
 * id in first-found order: unexpired grants; those of subscriptions that give access (until the
 * period end, or the grace end during a grace period); those of owned one-time purchases (no end).
 *
 * @example
 * activeEntitlements(world, customer); // [{ entitlement_id: 'entl…', expires_at: 1767225600000 }]
 */
export function activeEntitlements(world: World, customer: CustomerState): ActiveEntitlement[] {
  const found = new Map<string, number | null>();
  const add = (id: string, until: number | null) => found.set(id, found.has(id) ? later(found.get(id) ?? null, until) : until);
  const project = customer.project_id;
  for (const g of pmapGet(world.api.granted, attributeKey(project, customer.id)) ?? []) if (g.expires_at > world.now) add(g.entitlement_id, g.expires_at);
  for (const s of customer.subscriptions) {
    if (s.status === 'expired' || s.status === 'paused') continue;
    const until = s.status === 'grace' ? (s.grace_expires_at ?? s.period_end) : s.period_end;
    for (const e of entitlementsForProduct(world, project, s.product_id)) add(e.id, until);
  }
  for (const p of customer.purchases) if (!p.refunded) for (const e of entitlementsForProduct(world, project, p.product_id)) add(e.id, null);
  return [...found].map(([entitlement_id, expires_at]) => ({ entitlement_id, expires_at }));
}
