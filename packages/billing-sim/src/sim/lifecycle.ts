/**
 * The control API's purchase lifecycle: purchases (with or without trial), top-ups, cancellation,
 * uncancellation, billing issues and recovery, product changes, refunds and forced expiration.
 */
import { clawbackCredits, grantsForPurchase, type PlannedGrant, type RefundedPeriod } from '@tenure/core';
import { hexFrom } from '../internal/random.js';
import { parseDuration } from '../internal/duration.js';
import { fail, ok, type Result } from './apiError.js';
import {
  currenciesOf,
  customerOf,
  emitCurrencyEvent,
  eventContext,
  findSubscription,
  grantFor,
  newTransactionId,
  productsOf,
  purchaseOwner,
  type SimContext,
} from './context.js';
import { emitLifecycle, expireNow, failChargeNow, firstCycle, productOfSub, renewNow } from './cycles.js';
import type { Product } from './products.js';
import type { CustomerState, SubscriptionState } from './state.js';
import { nonRenewingPurchaseEvent } from './webhookEvents.js';

export interface PurchaseInput {
  project_id: string;
  customer_id: string;
  product_id: string;
  trial: boolean;
  presented_offering_id: string | null;
  country_code: string | null;
}

/** What a purchase created. */
export type PurchaseOutcome =
  | { kind: 'subscription'; subscription_id: string; transaction_id: string }
  | { kind: 'one_time'; transaction_id: string };

/** Buys a product now: a subscription (INITIAL_PURCHASE) or a top-up (NON_RENEWING_PURCHASE), with grants. */
export function purchase(ctx: SimContext, input: PurchaseInput): Result<PurchaseOutcome> {
  const product = productsOf(ctx).get(input.product_id);
  if (product === undefined) return fail('resource_missing', `Product ${input.product_id} not found`, 'product_id');
  const trial = input.trial ? parseDuration(product.trial_period ?? 0) : null;
  if (input.trial && trial === null) return fail('parameter_error', `Product ${product.id} has no free trial`, 'trial');
  const existing = customerOf(ctx, input.project_id, input.customer_id, false);
  if (product.type === 'subscription' && existing?.subscriptions.some((s) => s.product_id === product.id && s.status !== 'expired')) {
    return fail('resource_already_exists', `Customer already has a live subscription to ${product.id}`, 'product_id');
  }
  const customer = existing ?? customerOf(ctx, input.project_id, input.customer_id, true);
  if (customer === undefined) return fail('server_error', 'customer could not be created');
  customer.last_seen_at = ctx.now;
  const country = input.country_code ?? ctx.settings.country_code;
  const transactionId = newTransactionId(ctx);
  if (product.type === 'consumable') {
    customer.purchases.push({ transaction_id: transactionId, product_id: product.id, purchased_at: ctx.now, refunded: false });
    ctx.purchases.set(transactionId, { project_id: customer.project_id, customer_id: customer.id });
    ctx.events.push(nonRenewingPurchaseEvent(eventContext(ctx), customer, product, transactionId, country, false));
    grantFor(ctx, customer, product, 'top_up', null, transactionId);
    return ok({ kind: 'one_time', transaction_id: transactionId });
  }
  ctx.seq += 1;
  const sub: SubscriptionState = {
    id: `sub_${hexFrom(ctx.random, 12)}`,
    customer_id: customer.id,
    product_id: product.id,
    ...firstCycle(ctx, product, trial),
    original_transaction_id: transactionId,
    transaction_id: transactionId,
    original_purchased_at: ctx.now,
    auto_renew: true,
    renewal_number: 1,
    grace_expires_at: null,
    failed_at: null,
    pending_product_id: null,
    fail_next_renewal: null,
    presented_offering_id: input.presented_offering_id,
    country_code: country,
    seq: ctx.seq,
    expired_at: null,
    cancel_reason: null,
  };
  customer.subscriptions.push(sub);
  ctx.subscriptions.set(sub.id, { project_id: customer.project_id, customer_id: customer.id });
  emitLifecycle(ctx, 'INITIAL_PURCHASE', customer, sub, {});
  grantFor(ctx, customer, product, trial === null ? 'purchase' : 'trial', sub.period_end, transactionId);
  return ok({ kind: 'subscription', subscription_id: sub.id, transaction_id: transactionId });
}

type SubOp = Result<{ customer: CustomerState; sub: SubscriptionState }>;

const live = (ctx: SimContext, id: string, allowed: readonly SubscriptionState['status'][], what: string): SubOp => {
  const found = findSubscription(ctx, id);
  if (found === undefined) return fail('resource_missing', `Subscription ${id} not found`, 'subscription_id');
  if (!allowed.includes(found.sub.status)) {
    return fail('unprocessable_entity_error', `Cannot ${what} a subscription that is ${found.sub.status}`, 'subscription_id');
  }
  return ok(found);
};

/** Turns auto-renew off: CANCELLATION now, EXPIRATION at the period's end. */
export function cancel(ctx: SimContext, id: string, reason: string): SubOp {
  const r = live(ctx, id, ['trialing', 'active'], 'cancel');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  if (!sub.auto_renew) return fail('unprocessable_entity_error', 'The subscription is already cancelled', 'subscription_id');
  sub.auto_renew = false;
  sub.cancel_reason = reason;
  emitLifecycle(ctx, 'CANCELLATION', customer, sub, { cancel_reason: reason });
  return r;
}

/** Turns auto-renew back on before expiry: UNCANCELLATION. */
export function uncancel(ctx: SimContext, id: string): SubOp {
  const r = live(ctx, id, ['trialing', 'active'], 'uncancel');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  if (sub.auto_renew) return fail('unprocessable_entity_error', 'The subscription is not cancelled', 'subscription_id');
  sub.auto_renew = true;
  sub.cancel_reason = null;
  emitLifecycle(ctx, 'UNCANCELLATION', customer, sub, {});
  return r;
}

/** A charge fails now, or at the next renewal (`when: 'next_renewal'`), with an optional grace period. */
export function billingIssue(ctx: SimContext, id: string, graceMs: number | null, when: 'now' | 'next_renewal'): SubOp {
  const r = live(ctx, id, ['trialing', 'active'], 'fail the charge of');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  if (when === 'next_renewal') sub.fail_next_renewal = { grace_ms: graceMs };
  else failChargeNow(ctx, customer, sub, graceMs);
  return r;
}

/** The failed charge goes through during the grace period: RENEWAL, cycles resume from the failure. */
export function recover(ctx: SimContext, id: string): SubOp {
  const r = live(ctx, id, ['grace'], 'recover');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  sub.cycle_anchor = sub.failed_at ?? ctx.now;
  sub.cycle_index = 0;
  renewNow(ctx, customer, sub, false);
  return r;
}

/** PRODUCT_CHANGE now; the new product starts now (with RENEWAL) or at the next renewal. */
export function changeProduct(ctx: SimContext, id: string, newProductId: string, timing: 'immediate' | 'next_renewal'): SubOp {
  const r = live(ctx, id, ['trialing', 'active'], 'change the product of');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  const next = productsOf(ctx).get(newProductId);
  if (next === undefined || next.type !== 'subscription') {
    return fail('resource_missing', `Subscription product ${newProductId} not found`, 'new_product_id');
  }
  if (next.id === sub.product_id) return fail('parameter_error', 'The subscription already has this product', 'new_product_id');
  emitLifecycle(ctx, 'PRODUCT_CHANGE', customer, sub, { new_product_id: next.id });
  sub.pending_product_id = next.id;
  sub.auto_renew = true;
  if (timing === 'immediate') renewNow(ctx, customer, sub, true);
  return r;
}

/** Takes a refunded purchase's grants back with the core's clawback rule and reports it by webhook. */
function takeBack(ctx: SimContext, customer: CustomerState, grants: readonly PlannedGrant[], period: RefundedPeriod | null, product: Product, tx: string): void {
  const out = clawbackCredits(customer.ledger, grants, period, ctx.now, `refund:${tx}`);
  customer.ledger = out.ledger;
  emitCurrencyEvent(ctx, customer, out.entries, product, tx);
}

/**
 * Refunds the current period: CANCELLATION(CUSTOMER_SUPPORT) with a negative price, EXPIRATION at
 * once, and the period's grant taken back (core `clawbackCredits`: prorated, rounded up, floored at
 * the balance).
 */
export function refund(ctx: SimContext, id: string): SubOp {
  const r = live(ctx, id, ['trialing', 'active', 'grace'], 'refund');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  const product = productOfSub(ctx, sub);
  const price = sub.period_type === 'TRIAL' ? 0 : -product.price;
  emitLifecycle(ctx, 'CANCELLATION', customer, sub, { cancel_reason: 'CUSTOMER_SUPPORT', price, price_in_purchased_currency: price });
  const kind = sub.period_type === 'TRIAL' ? 'trial' : sub.renewal_number === 1 ? 'purchase' : 'renewal';
  const grants = grantsForPurchase(currenciesOf(ctx, customer.project_id), { product_id: product.id, kind, cycle_ends_at: sub.period_end, at: ctx.now });
  const period = { starts_at: sub.period_start, ends_at: sub.period_end };
  expireNow(ctx, customer, sub, 'CUSTOMER_SUPPORT');
  takeBack(ctx, customer, grants, period, product, sub.transaction_id);
  return r;
}

/** Refunds a one-time purchase: CANCELLATION(CUSTOMER_SUPPORT) and its grant taken back (floored). */
export function refundPurchase(ctx: SimContext, projectId: string, transactionId: string): Result<{ transaction_id: string }> {
  const owner = purchaseOwner(ctx, transactionId);
  const customer = owner === undefined || owner.project_id !== projectId ? undefined : customerOf(ctx, projectId, owner.customer_id, false);
  const p = customer?.purchases.find((x) => x.transaction_id === transactionId);
  if (customer === undefined || p === undefined) return fail('resource_missing', `Purchase ${transactionId} not found`, 'transaction_id');
  if (p.refunded) return fail('unprocessable_entity_error', 'The purchase is already refunded', 'transaction_id');
  const product = productsOf(ctx).get(p.product_id);
  if (product === undefined) return fail('resource_missing', 'product not found', 'product_id');
  p.refunded = true;
  ctx.events.push(nonRenewingPurchaseEvent(eventContext(ctx), customer, product, transactionId, ctx.settings.country_code, true));
  const grants = grantsForPurchase(currenciesOf(ctx, projectId), { product_id: product.id, kind: 'top_up', cycle_ends_at: null, at: ctx.now });
  takeBack(ctx, customer, grants, null, product, transactionId);
  return ok({ transaction_id: transactionId });
}

/** Ends a subscription now: EXPIRATION with the given reason. */
export function expire(ctx: SimContext, id: string, reason: string): SubOp {
  const r = live(ctx, id, ['trialing', 'active', 'grace'], 'expire');
  if (!r.ok) return r;
  expireNow(ctx, r.value.customer, r.value.sub, reason);
  return r;
}
