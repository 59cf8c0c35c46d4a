/**
 * API v1's promotional entitlements: a grant names the entitlement by its identifier (lookup key) and
 * lasts a named duration from a start (or until an end instant); revoking removes every grant of it.
 * An identifier that only catalog products name (`entitlement_ids` of /sim products) becomes an
 * entitlement of the project on its first grant, so the two ways of defining entitlements meet.
 */
import { addDuration, parseDuration } from '../internal/duration.js';
import { fail, type Result } from './apiError.js';
import { productsOf, type SimContext } from './context.js';
import { createEntitlement, entitlementByLookupKey } from './entitlements.js';
import { grantEntitlement, revokeGrantedEntitlement, type GrantDuration } from './grantedEntitlements.js';
import type { CustomerState } from './world.js';

/** The ISO 8601 length of each named duration of API v1 (`lifetime`: no end). */
export const PROMOTIONAL_DURATIONS = {
  daily: 'P1D',
  three_day: 'P3D',
  weekly: 'P1W',
  two_week: 'P2W',
  monthly: 'P1M',
  two_month: 'P2M',
  three_month: 'P3M',
  six_month: 'P6M',
  yearly: 'P1Y',
  lifetime: null,
} as const satisfies Record<Exclude<GrantDuration, 'custom'>, string | null>;

/** A promotional grant as API v1 asks for it: a named duration from `start_at` (default now), or an end. */
export interface PromotionalInput {
  project_id: string;
  customer_id: string;
  lookup_key: string;
  grant: { duration: keyof typeof PROMOTIONAL_DURATIONS; start_at: number | null } | { end_at: number };
}

/** The project's entitlement with this identifier, created when only catalog products name it; 404 otherwise. */
function entitlementIdFor(ctx: SimContext, projectId: string, lookupKey: string): Result<string> {
  const found = entitlementByLookupKey(ctx, projectId, lookupKey);
  if (found !== undefined) return { ok: true, value: found.id };
  const named = [...productsOf(ctx).values()].some((p) => p.entitlement_ids?.includes(lookupKey) === true);
  if (!named) return fail('resource_missing', `Entitlement ${lookupKey} not found`, 'entitlement_identifier');
  const created = createEntitlement(ctx, projectId, lookupKey, lookupKey);
  return created.ok ? { ok: true, value: created.value.id } : created;
}

/**
 * Grants an entitlement by identifier (the customer comes to exist): NON_RENEWING_PURCHASE in the
 * `PROMOTIONAL` store. The end is the start plus the duration, or the given end; it must be later than now.
 */
export function grantPromotional(ctx: SimContext, input: PromotionalInput): Result<CustomerState> {
  const entitlementId = entitlementIdFor(ctx, input.project_id, input.lookup_key);
  if (!entitlementId.ok) return entitlementId;
  const { grant } = input;
  let expiresAt: number | null;
  let duration: GrantDuration;
  if ('end_at' in grant) {
    expiresAt = grant.end_at;
    duration = 'custom';
  } else {
    const iso = PROMOTIONAL_DURATIONS[grant.duration];
    const length = iso === null ? null : parseDuration(iso);
    expiresAt = length === null ? null : addDuration(grant.start_at ?? ctx.now, length);
    duration = grant.duration;
  }
  if (expiresAt !== null && expiresAt <= ctx.now) return fail('parameter_error', 'The grant would end before now: end_time_ms (or start_time_ms plus duration) must be later', 'end_time_ms');
  const base = { project_id: input.project_id, customer_id: input.customer_id, entitlement_id: entitlementId.value, expires_at: expiresAt, duration };
  return grantEntitlement(ctx, base, true);
}

/** Revokes every grant of an entitlement identifier (none is not an error); 404 for an unknown customer or identifier. */
export function revokePromotional(ctx: SimContext, projectId: string, customerId: string, lookupKey: string): Result<CustomerState> {
  const found = entitlementByLookupKey(ctx, projectId, lookupKey);
  if (found === undefined) return fail('resource_missing', `Entitlement ${lookupKey} not found`, 'entitlement_identifier');
  return revokeGrantedEntitlement(ctx, projectId, customerId, found.id, false);
}
