/**
 * The control API's purchase lifecycle: purchases (with or without trial), top-ups, cancellation,
 * uncancellation, billing issues and recovery, product changes, refunds and forced expiration.
 */
import { adjustBalances, balancesOf, grantsForPurchase } from '@tenure/core';
import { hexFrom } from '../internal/random.js';
import { parseDuration } from '../internal/duration.js';
import { fail, ok, type Result } from './apiError.js';
import { currenciesOf, customerOf, emitCurrencyEvent, eventContext, grantFor, newTransactionId, type SimContext } from './context.js';
import { emitLifecycle, expireNow, failChargeNow, firstCycle, productOfSub, renewNow } from './cycles.js';
import type { Product } from './products.js';
import { projectOf, type CustomerState, type SubscriptionState } from './state.js';
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
  const product = ctx.state.products.get(input.product_id);
  if (product === undefined) return fail('resource_missing', `Product ${input.product_id} not found`, 'product_id');
  const trial = input.trial ? parseDuration(product.trial_period ?? 0) : null;
  if (input.trial && trial === null) return fail('parameter_error', `Product ${product.id} has no free trial`, 'trial');
  const existing = customerOf(ctx, input.project_id, input.customer_id, false);
  if (product.type === 'subscription' && existing?.subscriptions.some((s) => s.product_id === product.id && s.status !== 'expired')) {
    return fail('resource_already_exists', `Customer already has a live subscription to ${product.id}`, 'product_id');
  }
  const customer = existing ?? customerOf(ctx, input.project_id, input.customer_id, true);
  if (customer === undefined) return fail('server_error', 'customer could not be created');
  customer.last_seen_at = ctx.state.now;
  const country = input.country_code ?? ctx.settings.country_code;
  const transactionId = newTransactionId(ctx);
  if (product.type === 'consumable') {
    customer.purchases.push({ transaction_id: transactionId, product_id: product.id, purchased_at: ctx.state.now, refunded: false });
    ctx.emit(nonRenewingPurchaseEvent(eventContext(ctx), customer, product, transactionId, country));
    grantFor(ctx, customer, product, 'top_up', null, transactionId);
    return ok({ kind: 'one_time', transaction_id: transactionId });
  }
  ctx.state.seq += 1;
  const sub: SubscriptionState = {
    id: `sub_${hexFrom(ctx.random, 12)}`,
    customer_id: customer.id,
    product_id: product.id,
    ...firstCycle(ctx, product, trial),
    original_transaction_id: transactionId,
    transaction_id: transactionId,
    original_purchased_at: ctx.state.now,
    auto_renew: true,
    renewal_number: 1,
    grace_expires_at: null,
    failed_at: null,
    pending_product_id: null,
    fail_next_renewal: null,
    presented_offering_id: input.presented_offering_id,
    country_code: country,
    seq: ctx.state.seq,
    expired_at: null,
    cancel_reason: null,
  };
  customer.subscriptions.push(sub);
  ctx.state.subscriptions.set(sub.id, { customer, sub });
  emitLifecycle(ctx, 'INITIAL_PURCHASE', customer, sub);
  grantFor(ctx, customer, product, trial === null ? 'purchase' : 'trial', sub.period_end, transactionId);
  return ok({ kind: 'subscription', subscription_id: sub.id, transaction_id: transactionId });
}

/** Finds a subscription by id in any project. */
export function findSubscription(ctx: SimContext, id: string): { customer: CustomerState; sub: SubscriptionState } | undefined {
  return ctx.state.subscriptions.get(id);
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
  emitLifecycle(ctx, 'UNCANCELLATION', customer, sub);
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
  sub.cycle_anchor = sub.failed_at ?? ctx.state.now;
  sub.cycle_index = 0;
  renewNow(ctx, customer, sub, false);
  return r;
}

/** PRODUCT_CHANGE now; the new product starts now (with RENEWAL) or at the next renewal. */
export function changeProduct(ctx: SimContext, id: string, newProductId: string, timing: 'immediate' | 'next_renewal'): SubOp {
  const r = live(ctx, id, ['trialing', 'active'], 'change the product of');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  const next = ctx.state.products.get(newProductId);
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

/** Removes up to `amounts` credits (floored at the balance) and reports the removal by webhook. */
function takeBack(ctx: SimContext, customer: CustomerState, amounts: Map<string, number>, product: Product, tx: string): void {
  const balances = balancesOf(customer.ledger, ctx.state.now);
  const adjustments: Record<string, number> = Object.create(null) as Record<string, number>; // "__proto__" is a valid code
  for (const [code, amount] of amounts) {
    const take = Math.min(amount, balances[code] ?? 0);
    if (take > 0) adjustments[code] = -take;
  }
  if (Object.keys(adjustments).length === 0) return;
  const out = adjustBalances(customer.ledger, adjustments, ctx.state.now, { reference: `refund:${tx}` });
  if (!out.ok) return;
  customer.ledger = out.ledger;
  emitCurrencyEvent(ctx, customer, out.entries, product, tx);
}

/**
 * Refunds the current period: CANCELLATION(CUSTOMER_SUPPORT) with a negative price, EXPIRATION at
 * once, and the period's grant taken back prorated (rounded up, floored at the balance).
 */
export function refund(ctx: SimContext, id: string): SubOp {
  const r = live(ctx, id, ['trialing', 'active', 'grace'], 'refund');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  const product = productOfSub(ctx, sub);
  const price = sub.period_type === 'TRIAL' ? 0 : -product.price;
  emitLifecycle(ctx, 'CANCELLATION', customer, sub, { cancel_reason: 'CUSTOMER_SUPPORT', price, price_in_purchased_currency: price });
  const kind = sub.period_type === 'TRIAL' ? 'trial' : sub.renewal_number === 1 ? 'purchase' : 'renewal';
  const length = sub.period_end - sub.period_start;
  const fraction = length > 0 ? Math.max(0, Math.min(1, (sub.period_end - ctx.state.now) / length)) : 0;
  const amounts = new Map<string, number>();
  for (const g of grantsForPurchase(currenciesOf(ctx, customer.project_id), { product_id: product.id, kind, cycle_ends_at: sub.period_end, at: ctx.state.now })) {
    amounts.set(g.currency, (amounts.get(g.currency) ?? 0) + Math.ceil(g.amount * fraction));
  }
  expireNow(ctx, customer, sub, 'CUSTOMER_SUPPORT');
  takeBack(ctx, customer, amounts, product, sub.transaction_id);
  return r;
}

/** Refunds a one-time purchase: CANCELLATION(CUSTOMER_SUPPORT) and its grant taken back (floored). */
export function refundPurchase(ctx: SimContext, projectId: string, transactionId: string): Result<{ transaction_id: string }> {
  for (const customer of projectOf(ctx.state, projectId).customers.values()) {
    const p = customer.purchases.find((x) => x.transaction_id === transactionId);
    if (p === undefined) continue;
    if (p.refunded) return fail('unprocessable_entity_error', 'The purchase is already refunded', 'transaction_id');
    const product = ctx.state.products.get(p.product_id);
    if (product === undefined) return fail('resource_missing', 'product not found', 'product_id');
    p.refunded = true;
    const country = ctx.settings.country_code;
    ctx.emit(nonRenewingPurchaseEvent(eventContext(ctx), customer, product, transactionId, country, {
      type: 'CANCELLATION', cancel_reason: 'CUSTOMER_SUPPORT', price: -product.price, price_in_purchased_currency: -product.price,
    }));
    const amounts = new Map<string, number>();
    for (const g of grantsForPurchase(currenciesOf(ctx, projectId), { product_id: product.id, kind: 'top_up', cycle_ends_at: null, at: ctx.state.now })) {
      amounts.set(g.currency, (amounts.get(g.currency) ?? 0) + g.amount);
    }
    takeBack(ctx, customer, amounts, product, transactionId);
    return ok({ transaction_id: transactionId });
  }
  return fail('resource_missing', `Purchase ${transactionId} not found`, 'transaction_id');
}

/** Ends a subscription now: EXPIRATION with the given reason. */
export function expire(ctx: SimContext, id: string, reason: string): SubOp {
  const r = live(ctx, id, ['trialing', 'active', 'grace'], 'expire');
  if (!r.ok) return r;
  expireNow(ctx, r.value.customer, r.value.sub, reason);
  return r;
}
