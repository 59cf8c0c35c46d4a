/**
 * What each lifecycle command does to one subscription once the command has been checked: the state
 * change, the webhooks it emits and the credits it grants or takes back. `lifecycle.ts` finds the
 * subscription and refuses what its state does not allow, then calls these; the population generator
 * (`population/`) calls them directly on the customers it draws, so its events are the simulator's.
 */
import { clawbackCredits, grantsForPurchase, type PlannedGrant, type RefundedPeriod } from '@tenure/core';
import { prefixedHex } from '../internal/random.js';
import type { Duration } from '../internal/duration.js';
import { copySubscription } from './copyCustomer.js';
import { currenciesOf, emitCurrencyEvent, grantFor, newTransactionId, type SimContext } from './context.js';
import { emitLifecycle, expireNow, firstCycle, productOfSub, renewNow } from './cycles.js';
import type { Product, CustomerState, EventSettings, SubscriptionState, RenewalSchedule } from './world.js';

/** Where a new subscription comes from: the offering shown, the country, the store environment and the store. */
export interface SubscriptionOrigin {
  presented_offering_id: string | null;
  country_code: string;
  environment: EventSettings['environment'];
  store: string;
  /** How it renews (default: at the product's periods). */
  schedule?: RenewalSchedule;
}

/**
 * Adds a new subscription to the customer (and to the transition's index of owners), its first cycle
 * starting now, with the given transaction id.
 *
 * @example
 * newSubscription(ctx, customer, monthly, firstCycle(ctx, monthly, null), newTransactionId(ctx), origin);
 */
export function newSubscription(
  ctx: SimContext,
  customer: CustomerState,
  product: Product,
  cycle: ReturnType<typeof firstCycle>,
  transactionId: string,
  origin: SubscriptionOrigin,
): SubscriptionState {
  ctx.seq += 1;
  const id = prefixedHex(ctx.random, 'sub_', 12);
  // Through copySubscription: the one field order (and compact shape) of every subscription.
  const sub = copySubscription({
    id,
    customer_id: customer.id,
    product_id: product.id,
    status: cycle.status,
    period_type: cycle.period_type,
    original_transaction_id: transactionId,
    transaction_id: transactionId,
    original_purchased_at: ctx.now,
    period_start: cycle.period_start,
    period_end: cycle.period_end,
    cycle_anchor: cycle.cycle_anchor,
    cycle_index: cycle.cycle_index,
    auto_renew: true,
    renewal_number: 1,
    grace_expires_at: null,
    failed_at: null,
    pending_product_id: null,
    fail_next_renewal: null,
    presented_offering_id: origin.presented_offering_id,
    country_code: origin.country_code,
    seq: ctx.seq,
    expired_at: null,
    cancel_reason: null,
    unsubscribed_at: null,
    environment: origin.environment,
    store: origin.store,
    schedule: origin.schedule ?? 'store',
    auto_resume_at: null,
    refund: null,
    past_transactions: null,
  });
  customer.subscriptions.push(sub);
  ctx.subscriptions.set(sub.id, { project_id: customer.project_id, customer_id: customer.id });
  return sub;
}

/**
 * Buys a subscription product now (with a free trial when `trial` is given): INITIAL_PURCHASE and
 * the purchase's (or trial's) credits. Returns the new subscription.
 *
 * @example
 * const sub = purchaseSubscription(ctx, customer, monthly, null, newTransactionId(ctx), origin);
 */
export function purchaseSubscription(
  ctx: SimContext,
  customer: CustomerState,
  product: Product,
  trial: Duration | null,
  transactionId: string,
  origin: SubscriptionOrigin,
): SubscriptionState {
  const sub = newSubscription(ctx, customer, product, firstCycle(ctx, product, trial, origin.schedule), transactionId, origin);
  emitLifecycle(ctx, 'INITIAL_PURCHASE', customer, sub, {});
  grantFor(ctx, customer, product, trial === null ? 'purchase' : 'trial', sub.period_end, transactionId, origin.environment);
  return sub;
}

/** Turns auto-renew off: CANCELLATION now (the clock sends EXPIRATION at the period's end). */
export function cancelSubscription(ctx: SimContext, customer: CustomerState, sub: SubscriptionState, reason: string): void {
  sub.auto_renew = false;
  sub.cancel_reason = reason;
  sub.unsubscribed_at = ctx.now;
  emitLifecycle(ctx, 'CANCELLATION', customer, sub, { cancel_reason: reason });
}

/** Turns auto-renew back on before expiry: UNCANCELLATION. */
export function uncancelSubscription(ctx: SimContext, customer: CustomerState, sub: SubscriptionState): void {
  sub.auto_renew = true;
  sub.cancel_reason = null;
  sub.unsubscribed_at = null;
  emitLifecycle(ctx, 'UNCANCELLATION', customer, sub, {});
}

/** The failed charge goes through during the grace period: RENEWAL, cycles resume from the failure. */
export function recoverSubscription(ctx: SimContext, customer: CustomerState, sub: SubscriptionState): void {
  sub.cycle_anchor = sub.failed_at ?? ctx.now;
  sub.cycle_index = 0;
  renewNow(ctx, customer, sub, false);
}

/** PRODUCT_CHANGE now; the new product starts now (with RENEWAL) or at the next renewal. */
export function changeSubscriptionProduct(ctx: SimContext, customer: CustomerState, sub: SubscriptionState, next: Product, timing: 'immediate' | 'next_renewal'): void {
  emitLifecycle(ctx, 'PRODUCT_CHANGE', customer, sub, { new_product_id: next.id });
  sub.pending_product_id = next.id;
  sub.auto_renew = true;
  sub.unsubscribed_at = null;
  if (timing === 'immediate') renewNow(ctx, customer, sub, true);
}

/** Takes a refunded purchase's grants back with the core's clawback rule and reports it by webhook. */
export function takeBack(
  ctx: SimContext,
  customer: CustomerState,
  grants: readonly PlannedGrant[],
  period: RefundedPeriod | null,
  product: Product,
  tx: string,
  environment: EventSettings['environment'] = ctx.settings.environment,
): void {
  const out = clawbackCredits(customer.ledger, grants, period, ctx.now, `refund:${tx}`);
  customer.ledger = out.ledger;
  emitCurrencyEvent(ctx, customer, out.entries, product, tx, environment);
}

/**
 * Refunds the current period: CANCELLATION(CUSTOMER_SUPPORT) with a negative price, EXPIRATION at
 * once, and the period's grant taken back (core `clawbackCredits`: prorated, rounded up, floored at
 * the balance).
 */
export function refundSubscription(ctx: SimContext, customer: CustomerState, sub: SubscriptionState): void {
  const product = productOfSub(ctx, sub);
  const price = sub.period_type === 'TRIAL' ? 0 : -product.price;
  emitLifecycle(ctx, 'CANCELLATION', customer, sub, { cancel_reason: 'CUSTOMER_SUPPORT', price, price_in_purchased_currency: price });
  const kind = sub.period_type === 'TRIAL' ? 'trial' : sub.renewal_number === 1 ? 'purchase' : 'renewal';
  const grants = grantsForPurchase(currenciesOf(ctx, customer.project_id), { product_id: product.id, kind, cycle_ends_at: sub.period_end, at: ctx.now });
  const period = { starts_at: sub.period_start, ends_at: sub.period_end };
  const undone = { at: ctx.now, status: sub.status, period_end: sub.period_end, auto_renew: sub.auto_renew, cancel_reason: sub.cancel_reason };
  expireNow(ctx, customer, sub, 'CUSTOMER_SUPPORT');
  sub.refund = undone;
  takeBack(ctx, customer, grants, period, product, sub.transaction_id, sub.environment);
}

/**
 * Plans a pause (Play) that resumes at `resumeAt`: SUBSCRIPTION_PAUSED now; the clock pauses the
 * subscription at its period end (EXPIRATION(SUBSCRIPTION_PAUSED)) and renews it at `resumeAt`.
 */
export function pauseSubscription(ctx: SimContext, customer: CustomerState, sub: SubscriptionState, resumeAt: number): void {
  sub.auto_resume_at = resumeAt;
  emitLifecycle(ctx, 'SUBSCRIPTION_PAUSED', customer, sub, { auto_resume_at_ms: resumeAt });
}

export { newTransactionId };
