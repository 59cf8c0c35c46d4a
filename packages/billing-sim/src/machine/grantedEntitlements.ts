/**
 * Entitlements granted to a customer (API v2's `grant_entitlement`, API v1's promotional grant),
 * outside any purchase, each sent as the billing service's promotional NON_RENEWING_PURCHASE, and
 * which entitlements a customer has now: granted ones, and those its live subscriptions and owned
 * one-time purchases unlock.
 */
import { hexFrom } from '../internal/random.js';
import { fail, ok, type Result } from './apiError.js';
import { attributeKey } from './attributes.js';
import { customerOf, emitEvent, eventContext, peekCustomer, type SimContext } from './context.js';
import { entitlementsForProduct, findEntitlement } from './entitlements.js';
import { pmapGet, pmapSet } from './persistentMap.js';
import { promotionalEvent } from './promotionalEvents.js';
import type { CustomerState, World, GrantedEntitlement } from './world.js';

/** An entitlement a customer has now, and until when (null: no end). */
export interface ActiveEntitlement {
  entitlement_id: string;
  expires_at: number | null;
}

/** How long a grant lasts, as API v1 names durations (`custom`: an end instant was given). */
export type GrantDuration = 'daily' | 'three_day' | 'weekly' | 'two_week' | 'monthly' | 'two_month' | 'three_month' | 'six_month' | 'yearly' | 'lifetime' | 'custom';

/** What a grant needs: who, which entitlement (by id), until when, and the duration's name. */
export interface GrantInput {
  project_id: string;
  customer_id: string;
  entitlement_id: string;
  expires_at: number | null;
  duration: GrantDuration;
}

const grantsOf = (ctx: SimContext, projectId: string, customerId: string): readonly GrantedEntitlement[] =>
  pmapGet(ctx.api.granted, attributeKey(projectId, customerId)) ?? [];

const promoFields = (grant: GrantedEntitlement, lookupKey: string) => ({ ...grant, lookup_key: lookupKey });

/**
 * Grants a customer an entitlement until `expires_at` (null: lifetime; a later grant of the same one
 * replaces it) and sends the grant's NON_RENEWING_PURCHASE (store and period type `PROMOTIONAL`).
 * `create`: the customer comes to exist (API v1's grant); otherwise 404 for an unknown one (API v2's).
 */
export function grantEntitlement(ctx: SimContext, input: GrantInput, create = false): Result<CustomerState> {
  const { project_id: projectId, customer_id: customerId, entitlement_id: entitlementId, expires_at: expiresAt } = input;
  const known = peekCustomer(ctx, projectId, customerId);
  if (known === undefined && !create) return fail('resource_missing', `Customer ${customerId} not found`, 'customer_id');
  const entitlement = findEntitlement(ctx, projectId, entitlementId);
  if (!entitlement.ok) return entitlement;
  if (expiresAt !== null && expiresAt <= ctx.now) return fail('parameter_error', 'expires_at must be in the future', 'expires_at');
  const customer = known ?? customerOf(ctx, projectId, customerId, true);
  if (customer === undefined) return fail('server_error', 'the customer was not created');
  const grant: GrantedEntitlement = {
    entitlement_id: entitlementId,
    expires_at: expiresAt,
    granted_at: ctx.now,
    product_id: `rc_promo_${entitlement.value.lookup_key}_${input.duration}`,
    transaction_id: hexFrom(ctx.random, 32),
  };
  const kept = grantsOf(ctx, projectId, customerId).filter((g) => g.entitlement_id !== entitlementId);
  ctx.api = { ...ctx.api, granted: pmapSet(ctx.api.granted, attributeKey(projectId, customerId), [...kept, grant]) };
  emitEvent(ctx, projectId, promotionalEvent(eventContext(ctx, 'PRODUCTION', 'PROMOTIONAL'), customer, promoFields(grant, entitlement.value.lookup_key), false));
  return ok(customer);
}

/**
 * Revokes a customer's grant of an entitlement and sends its CANCELLATION. `strict` (API v2): 404
 * naming `entitlement_id` when the customer has no such live grant; otherwise (API v1's "revoke
 * all granted") revoking none is not an error.
 */
export function revokeGrantedEntitlement(ctx: SimContext, projectId: string, customerId: string, entitlementId: string, strict = true): Result<CustomerState> {
  const customer = peekCustomer(ctx, projectId, customerId);
  if (customer === undefined) return fail('resource_missing', `Customer ${customerId} not found`, 'customer_id');
  const grants = grantsOf(ctx, projectId, customerId);
  const live = grants.filter((g) => g.entitlement_id === entitlementId && (g.expires_at === null || g.expires_at > ctx.now));
  if (live.length === 0 && strict) return fail('resource_missing', `Customer ${customerId} has no granted entitlement ${entitlementId}`, 'entitlement_id');
  if (live.length === 0) return ok(customer);
  ctx.api = { ...ctx.api, granted: pmapSet(ctx.api.granted, attributeKey(projectId, customerId), grants.filter((g) => g.entitlement_id !== entitlementId)) };
  const lookupKey = pmapGet(ctx.api.entitlements, entitlementId)?.lookup_key ?? entitlementId;
  for (const grant of live) {
    emitEvent(ctx, projectId, promotionalEvent(eventContext(ctx, 'PRODUCTION', 'PROMOTIONAL'), customer, promoFields(grant, lookupKey), true));
  }
  return ok(customer);
}

/**
 * Given a world and a customer, returns its grants (live and ended) in grant order.
 *
 * @example
 * grantedTo(world, customer).map((g) => g.product_id); // ['rc_promo_pro_weekly']
 */
export const grantedTo = (world: World, customer: CustomerState): readonly GrantedEntitlement[] =>
  pmapGet(world.api.granted, attributeKey(customer.project_id, customer.id)) ?? [];

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
  for (const g of grantedTo(world, customer)) if (g.expires_at === null || g.expires_at > world.now) add(g.entitlement_id, g.expires_at);
  for (const s of customer.subscriptions) {
    if (s.status === 'expired' || s.status === 'paused') continue;
    const until = s.status === 'grace' ? (s.grace_expires_at ?? s.period_end) : s.period_end;
    for (const e of entitlementsForProduct(world, project, s.product_id)) add(e.id, until);
  }
  for (const p of customer.purchases) if (!p.refunded) for (const e of entitlementsForProduct(world, project, p.product_id)) add(e.id, null);
  return [...found].map(([entitlement_id, expires_at]) => ({ entitlement_id, expires_at }));
}
