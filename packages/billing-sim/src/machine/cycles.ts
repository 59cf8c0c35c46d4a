/**
 * The subscription cycle transitions the clock and the control API share: renewal (and trial
 * conversion), billing failure, expiry. Each emits the billing service's webhooks and applies grants.
 */
import { addDuration, parseDuration, type Duration } from '../internal/duration.js';
import { grantFor, newTransactionId, productsOf, type SimContext } from './context.js';
import type { Product, CustomerState, SubscriptionState, RenewalSchedule } from './world.js';
import type { LifecycleExtras, LifecycleType } from './webhookEvents.js';
import { TEST_STORE_MAX_RENEWALS, testStorePeriod } from './testStoreSchedule.js';

const ONE_MONTH: Duration = { years: 0, months: 1, days: 0, ms: 0 };
/** Parsed periods by their text: a renewal needs its product's period, and parsing it each time showed in profiles. */
const parsedPeriods = new Map<string | number, Duration>();

/** The billing period of a subscription product. */
export function periodOf(product: Product): Duration {
  const text = product.period ?? 'P1M';
  let d = parsedPeriods.get(text);
  if (d === undefined) {
    d = parseDuration(text) ?? ONE_MONTH;
    if (parsedPeriods.size < 1000) parsedPeriods.set(text, d);
  }
  return d;
}

/** The length of a period on a schedule: the store's, or the Test Store's minutes. */
const onSchedule = (period: Duration, schedule: RenewalSchedule): Duration => (schedule === 'test_store' ? testStorePeriod(period) : period);

/** The product of a subscription (products cannot be deleted, so it is always there). */
export function productOfSub(ctx: SimContext, sub: SubscriptionState): Product {
  const product = productsOf(ctx).get(sub.product_id);
  if (product === undefined) throw new Error(`product ${sub.product_id} vanished`);
  return product;
}

/** Emits one lifecycle webhook for a subscription at the current virtual time. */
export function emitLifecycle<T extends LifecycleType>(
  ctx: SimContext,
  type: T,
  customer: CustomerState,
  sub: SubscriptionState,
  extra: LifecycleExtras[T],
): void {
  ctx.log.lifecycle(type, ctx.now, customer, sub, productOfSub(ctx, sub), extra);
}

/**
 * Starts a new paid cycle now: a renewal, a trial conversion, a recovery or an immediate product
 * change. Emits RENEWAL (with `is_trial_conversion`) and grants the product's renewal credits.
 */
export function renewNow(ctx: SimContext, customer: CustomerState, sub: SubscriptionState, restartCycles: boolean): void {
  const now = ctx.now;
  const wasTrial = sub.period_type === 'TRIAL';
  // The current transaction becomes a past one (one node; the older ones are shared, not copied).
  sub.past_transactions = {
    id: sub.transaction_id,
    product_id: sub.product_id,
    purchased_at: sub.period_start,
    expires_at: sub.period_end,
    refunded_at: sub.refund?.at ?? null,
    previous: sub.past_transactions,
  };
  if (sub.pending_product_id !== null) {
    sub.product_id = sub.pending_product_id;
    sub.pending_product_id = null;
    restartCycles = true;
  }
  const product = productOfSub(ctx, sub);
  if (restartCycles) {
    sub.cycle_anchor = now;
    sub.cycle_index = 0;
  }
  sub.cycle_index += 1;
  sub.period_start = now;
  sub.period_end = addDuration(sub.cycle_anchor, onSchedule(periodOf(product), sub.schedule), sub.cycle_index);
  sub.period_type = 'NORMAL';
  sub.status = 'active';
  sub.renewal_number += 1;
  sub.transaction_id = newTransactionId(ctx);
  sub.grace_expires_at = null;
  sub.failed_at = null;
  sub.auto_resume_at = null;
  emitLifecycle(ctx, 'RENEWAL', customer, sub, { is_trial_conversion: wasTrial });
  grantFor(ctx, customer, product, 'renewal', sub.period_end, sub.transaction_id, sub.environment);
  if (sub.schedule === 'test_store' && sub.renewal_number > TEST_STORE_MAX_RENEWALS && sub.auto_renew) {
    // The Test Store's last renewal: auto-renew goes off, the period runs out (EXPIRATION from the clock).
    sub.auto_renew = false;
    sub.cancel_reason = 'UNSUBSCRIBE';
    sub.unsubscribed_at = now;
    emitLifecycle(ctx, 'CANCELLATION', customer, sub, { cancel_reason: 'UNSUBSCRIBE' });
  }
}

/**
 * A planned pause takes effect at the period end: the subscription is paused (no access) until
 * `auto_resume_at`, and EXPIRATION(SUBSCRIPTION_PAUSED) is sent, as the billing service revokes
 * access for a paused Play subscription.
 */
export function pauseNow(ctx: SimContext, customer: CustomerState, sub: SubscriptionState): void {
  sub.status = 'paused';
  sub.fail_next_renewal = null;
  emitLifecycle(ctx, 'EXPIRATION', customer, sub, { expiration_reason: 'SUBSCRIPTION_PAUSED' });
}

/** A paused subscription resumes now: a new paid cycle (RENEWAL with its grant), cycles counted from now. */
export function resumeNow(ctx: SimContext, customer: CustomerState, sub: SubscriptionState): void {
  renewNow(ctx, customer, sub, true);
}

/** Ends a subscription now with EXPIRATION and the given reason. */
export function expireNow(ctx: SimContext, customer: CustomerState, sub: SubscriptionState, reason: string): void {
  sub.status = 'expired';
  sub.expired_at = ctx.now;
  sub.auto_renew = false;
  sub.grace_expires_at = null;
  // A change, failure or pause planned for the next renewal will never happen: there is none.
  sub.pending_product_id = null;
  sub.fail_next_renewal = null;
  sub.auto_resume_at = null;
  emitLifecycle(ctx, 'EXPIRATION', customer, sub, { expiration_reason: reason });
}

/**
 * A charge failed now: BILLING_ISSUE and CANCELLATION(BILLING_ERROR) at the same moment; without a
 * grace period EXPIRATION(BILLING_ERROR) follows at once, with one the subscription waits in grace
 * for recovery (RENEWAL) or the grace end (EXPIRATION).
 */
export function failChargeNow(ctx: SimContext, customer: CustomerState, sub: SubscriptionState, graceMs: number | null): void {
  const now = ctx.now;
  sub.fail_next_renewal = null;
  sub.failed_at = now;
  sub.period_end = Math.min(sub.period_end, now);
  const graceEnd = graceMs === null ? null : now + graceMs;
  emitLifecycle(ctx, 'BILLING_ISSUE', customer, sub, { grace_period_expiration_at_ms: graceEnd });
  emitLifecycle(ctx, 'CANCELLATION', customer, sub, { cancel_reason: 'BILLING_ERROR' });
  if (graceEnd === null) {
    expireNow(ctx, customer, sub, 'BILLING_ERROR');
  } else {
    sub.status = 'grace';
    sub.grace_expires_at = graceEnd;
  }
}

/** Starts a subscription's first cycle (trial or paid) at the current virtual time, on its schedule. */
export function firstCycle(
  ctx: SimContext,
  product: Product,
  trial: Duration | null,
  schedule: RenewalSchedule = 'store',
): Pick<SubscriptionState, 'period_type' | 'period_start' | 'period_end' | 'cycle_anchor' | 'cycle_index' | 'status'> {
  const now = ctx.now;
  if (trial !== null) {
    const end = addDuration(now, onSchedule(trial, schedule));
    return { period_type: 'TRIAL', period_start: now, period_end: end, cycle_anchor: end, cycle_index: 0, status: 'trialing' };
  }
  return {
    period_type: 'NORMAL',
    period_start: now,
    period_end: addDuration(now, onSchedule(periodOf(product), schedule), 1),
    cycle_anchor: now,
    cycle_index: 1,
    status: 'active',
  };
}

export { newTransactionId };

/**
 * The expiration reason of a temporary entitlement grant whose purchase was never validated. The
 * billing service documents the EXPIRATION (same `transaction_id`) but not its reason; `UNKNOWN` is
 * the documented value that claims no cause.
 */
export const TEMPORARY_GRANT_EXPIRATION_REASON = 'UNKNOWN';
