/**
 * The control API's purchase lifecycle: purchases (with or without trial, sandbox or production),
 * top-ups, cancellation, uncancellation, billing issues and recovery, product changes, refunds and
 * their reversal, forced expiration, pause and resume, extensions, transfers and temporary
 * entitlement grants.
 */
import { grantsForPurchase } from '@tenure/core';
import { addDuration, parseDuration, type Duration } from '../internal/duration.js';
import { fail, ok, type Result } from './apiError.js';
import { currenciesOf, customerOf, emitEvent, eventContext, findSubscription, grantFor, newTransactionId, productsOf, purchaseOwner, type SimContext } from './context.js';
import { emitLifecycle, expireNow, failChargeNow, firstCycle, resumeNow } from './cycles.js';
import type { Product, CustomerState, EventSettings, SubscriptionState, RenewalSchedule } from './world.js';
import {
  cancelSubscription,
  changeSubscriptionProduct,
  newSubscription,
  pauseSubscription,
  purchaseSubscription,
  recoverSubscription,
  refundSubscription,
  takeBack,
  uncancelSubscription,
} from './subscriptionOps.js';
import { nonRenewingPurchaseEvent, transferEvent } from './webhookEvents.js';

export interface PurchaseInput {
  project_id: string;
  customer_id: string;
  product_id: string;
  trial: boolean;
  presented_offering_id: string | null;
  country_code: string | null;
  /** The store environment of the purchase and of every later event of it (default: the settings'). */
  environment?: EventSettings['environment'] | null;
  /** The store (default: the settings'). */
  store?: string | null;
  /** How a subscription bought now renews (default: at the product's periods; `test_store`: a `test_` key's purchase). */
  schedule?: RenewalSchedule;
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
  const temporary = existing?.subscriptions.find((s) => s.product_id === product.id && s.status === 'temporary');
  if (existing !== undefined && temporary !== undefined) return validateTemporary(ctx, existing, temporary, product, trial);
  if (product.type === 'subscription' && existing?.subscriptions.some((s) => s.product_id === product.id && s.status !== 'expired')) {
    return fail('resource_already_exists', `Customer already has a live subscription to ${product.id}`, 'product_id');
  }
  const customer = existing ?? customerOf(ctx, input.project_id, input.customer_id, true);
  if (customer === undefined) return fail('server_error', 'customer could not be created');
  customer.last_seen_at = ctx.now;
  const country = input.country_code ?? ctx.settings.country_code;
  const environment = input.environment ?? ctx.settings.environment;
  const store = input.store ?? ctx.settings.store;
  const transactionId = newTransactionId(ctx);
  if (product.type === 'consumable') {
    const bought = { transaction_id: transactionId, product_id: product.id, purchased_at: ctx.now, refunded: false, environment, store, presented_offering_id: input.presented_offering_id };
    customer.purchases.push(bought);
    ctx.purchases.set(transactionId, { project_id: customer.project_id, customer_id: customer.id });
    emitEvent(ctx, customer.project_id, nonRenewingPurchaseEvent(eventContext(ctx), customer, product, bought, country, false));
    grantFor(ctx, customer, product, 'top_up', null, transactionId, environment);
    return ok({ kind: 'one_time', transaction_id: transactionId });
  }
  const origin = { presented_offering_id: input.presented_offering_id, country_code: country, environment, store, schedule: input.schedule ?? 'store' };
  const sub = purchaseSubscription(ctx, customer, product, trial, transactionId, origin);
  return ok({ kind: 'subscription', subscription_id: sub.id, transaction_id: transactionId });
}

/**
 * The purchase behind a temporary entitlement grant is validated: INITIAL_PURCHASE with the grant's
 * transaction, the first cycle starting now, and the purchase's credits.
 */
function validateTemporary(ctx: SimContext, customer: CustomerState, sub: SubscriptionState, product: Product, trial: Duration | null): Result<PurchaseOutcome> {
  customer.last_seen_at = ctx.now;
  Object.assign(sub, firstCycle(ctx, product, trial, sub.schedule));
  sub.auto_renew = true;
  emitLifecycle(ctx, 'INITIAL_PURCHASE', customer, sub, {});
  grantFor(ctx, customer, product, trial === null ? 'purchase' : 'trial', sub.period_end, sub.transaction_id, sub.environment);
  return ok({ kind: 'subscription', subscription_id: sub.id, transaction_id: sub.transaction_id });
}

/** The longest temporary entitlement the billing service grants during a store outage: 24 hours. */
export const MAX_TEMPORARY_GRANT_MS = 24 * 60 * 60 * 1000;

/** What a temporary entitlement grant needs: who, which subscription product, how long (≤ 24 h). */
export interface TemporaryGrantInput {
  project_id: string;
  customer_id: string;
  product_id: string;
  duration_ms: number;
  environment?: EventSettings['environment'] | null;
  store?: string | null;
  country_code?: string | null;
}

/**
 * A store outage: the purchase cannot be validated yet, so a short entitlement is granted
 * (TEMPORARY_ENTITLEMENT_GRANT, no credits: it is not a purchase). A purchase of the same product
 * validates it (INITIAL_PURCHASE with the same transaction); otherwise it ends with EXPIRATION.
 */
export function temporaryGrant(ctx: SimContext, input: TemporaryGrantInput): Result<{ subscription_id: string; transaction_id: string }> {
  const product = productsOf(ctx).get(input.product_id);
  if (product === undefined || product.type !== 'subscription') return fail('resource_missing', `Subscription product ${input.product_id} not found`, 'product_id');
  if (!Number.isSafeInteger(input.duration_ms) || input.duration_ms < 1 || input.duration_ms > MAX_TEMPORARY_GRANT_MS) {
    return fail('parameter_error', 'A temporary entitlement lasts from 1 ms to 24 hours', 'duration');
  }
  const existing = customerOf(ctx, input.project_id, input.customer_id, false);
  if (existing?.subscriptions.some((s) => s.product_id === product.id && s.status !== 'expired')) {
    return fail('resource_already_exists', `Customer already has a live subscription to ${product.id}`, 'product_id');
  }
  const customer = existing ?? customerOf(ctx, input.project_id, input.customer_id, true);
  if (customer === undefined) return fail('server_error', 'customer could not be created');
  customer.last_seen_at = ctx.now;
  const cycle = { period_type: 'NORMAL', period_start: ctx.now, period_end: ctx.now + input.duration_ms, cycle_anchor: ctx.now, cycle_index: 0, status: 'temporary' } as const;
  const sub = newSubscription(ctx, customer, product, cycle, newTransactionId(ctx), {
    presented_offering_id: null,
    country_code: input.country_code ?? ctx.settings.country_code,
    environment: input.environment ?? ctx.settings.environment,
    store: input.store ?? ctx.settings.store,
  });
  emitLifecycle(ctx, 'TEMPORARY_ENTITLEMENT_GRANT', customer, sub, {});
  return ok({ subscription_id: sub.id, transaction_id: sub.transaction_id });
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
  cancelSubscription(ctx, customer, sub, reason);
  return r;
}

/** Turns auto-renew back on before expiry: UNCANCELLATION. */
export function uncancel(ctx: SimContext, id: string): SubOp {
  const r = live(ctx, id, ['trialing', 'active'], 'uncancel');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  if (sub.auto_renew) return fail('unprocessable_entity_error', 'The subscription is not cancelled', 'subscription_id');
  uncancelSubscription(ctx, customer, sub);
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
  recoverSubscription(ctx, r.value.customer, r.value.sub);
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
  changeSubscriptionProduct(ctx, customer, sub, next, timing);
  return r;
}

/**
 * Refunds the current period: CANCELLATION(CUSTOMER_SUPPORT) with a negative price, EXPIRATION at
 * once, and the period's grant taken back (core `clawbackCredits`: prorated, rounded up, floored at
 * the balance).
 */
export function refund(ctx: SimContext, id: string): SubOp {
  const r = live(ctx, id, ['trialing', 'active', 'grace'], 'refund');
  if (!r.ok) return r;
  refundSubscription(ctx, r.value.customer, r.value.sub);
  return r;
}

/** Refunds a one-time purchase: CANCELLATION(CUSTOMER_SUPPORT) in its store and environment, and its grant taken back (floored). */
export function refundPurchase(ctx: SimContext, projectId: string, transactionId: string): Result<{ transaction_id: string }> {
  const owner = purchaseOwner(ctx, transactionId);
  const customer = owner === undefined || owner.project_id !== projectId ? undefined : customerOf(ctx, projectId, owner.customer_id, false);
  const p = customer?.purchases.find((x) => x.transaction_id === transactionId);
  if (customer === undefined || p === undefined) return fail('resource_missing', `Purchase ${transactionId} not found`, 'transaction_id');
  if (p.refunded) return fail('unprocessable_entity_error', 'The purchase is already refunded', 'transaction_id');
  const product = productsOf(ctx).get(p.product_id);
  if (product === undefined) return fail('resource_missing', 'product not found', 'product_id');
  p.refunded = true;
  emitEvent(ctx, customer.project_id, nonRenewingPurchaseEvent(eventContext(ctx), customer, product, p, ctx.settings.country_code, true));
  const grants = grantsForPurchase(currenciesOf(ctx, projectId), { product_id: product.id, kind: 'top_up', cycle_ends_at: null, at: ctx.now });
  takeBack(ctx, customer, grants, null, product, transactionId, p.environment);
  return ok({ transaction_id: transactionId });
}

/** Ends a subscription now: EXPIRATION with the given reason. */
export function expire(ctx: SimContext, id: string, reason: string): SubOp {
  const r = live(ctx, id, ['trialing', 'active', 'grace', 'paused', 'temporary'], 'expire');
  if (!r.ok) return r;
  expireNow(ctx, r.value.customer, r.value.sub, reason);
  return r;
}

/**
 * Plans a pause (Play): SUBSCRIPTION_PAUSED now with `auto_resume_at_ms` = period end + `resumeAfter`;
 * access continues to the period end, where the subscription pauses (EXPIRATION(SUBSCRIPTION_PAUSED))
 * and at the resume instant it renews (RENEWAL). Only a paid, renewing subscription can pause.
 */
export function pause(ctx: SimContext, id: string, resumeAfter: Duration): SubOp {
  const r = live(ctx, id, ['active'], 'pause');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  if (!sub.auto_renew) return fail('unprocessable_entity_error', 'A cancelled subscription cannot pause', 'subscription_id');
  if (sub.auto_resume_at !== null) return fail('unprocessable_entity_error', 'The subscription is already set to pause', 'subscription_id');
  const resumeAt = addDuration(sub.period_end, resumeAfter);
  if (resumeAt <= sub.period_end) return fail('parameter_error', 'The pause must last longer than 0', 'resume_after');
  pauseSubscription(ctx, customer, sub, resumeAt);
  return r;
}

/** A paused subscription resumes now, before its planned resume: RENEWAL, cycles counted from now. */
export function resume(ctx: SimContext, id: string): SubOp {
  const r = live(ctx, id, ['paused'], 'resume');
  if (!r.ok) return r;
  resumeNow(ctx, r.value.customer, r.value.sub);
  return r;
}

/**
 * Extends the current period by a duration (SUBSCRIPTION_EXTENDED with the new `expiration_at_ms`);
 * the next renewal happens at the new end and cycles count from there. Credits already granted keep
 * their expiry.
 */
export function extend(ctx: SimContext, id: string, by: Duration): SubOp {
  const r = live(ctx, id, ['trialing', 'active'], 'extend');
  if (!r.ok) return r;
  const { customer, sub } = r.value;
  const end = addDuration(sub.period_end, by);
  if (end <= sub.period_end) return fail('parameter_error', 'An extension must be longer than 0', 'by');
  // A pause planned for the period end starts at the new end and lasts as long as planned (without
  // this, an extension as long as the pause resumed it at the instant it began).
  if (sub.auto_resume_at !== null) sub.auto_resume_at += end - sub.period_end;
  sub.period_end = end;
  sub.cycle_anchor = end;
  sub.cycle_index = 0;
  emitLifecycle(ctx, 'SUBSCRIPTION_EXTENDED', customer, sub, {});
  return r;
}

/**
 * Reverses the last refund of a subscription: REFUND_REVERSED, and when the refunded period has not
 * ended, the subscription has access again until its end, renewing as it would have. Credits taken
 * back by the refund stay taken (the billing service documents no grant on a reversal).
 */
export function reverseRefund(ctx: SimContext, id: string): SubOp {
  const found = findSubscription(ctx, id);
  if (found === undefined) return fail('resource_missing', `Subscription ${id} not found`, 'subscription_id');
  const { customer, sub } = found;
  const undone = sub.refund;
  if (undone === null || sub.status !== 'expired') return fail('unprocessable_entity_error', 'The subscription has no refund to reverse', 'subscription_id');
  const restore = undone.period_end > ctx.now && (undone.status === 'trialing' || undone.status === 'active');
  if (restore && customer.subscriptions.some((s) => s !== sub && s.product_id === sub.product_id && s.status !== 'expired')) {
    return fail('resource_already_exists', `Customer already has a live subscription to ${sub.product_id}`, 'subscription_id');
  }
  sub.refund = null;
  if (restore) {
    sub.status = undone.status;
    sub.period_end = undone.period_end;
    sub.auto_renew = undone.auto_renew;
    sub.cancel_reason = undone.cancel_reason;
    sub.expired_at = null;
  }
  emitLifecycle(ctx, 'REFUND_REVERSED', customer, sub, {});
  return ok(found);
}

/**
 * Moves every subscription and one-time purchase of a customer to another customer of the same
 * project (created if new): one TRANSFER event (`transferred_from`, `transferred_to`); later events
 * of the moved subscriptions name the new owner. Credits stay: virtual currency is not transferable.
 */
export function transfer(ctx: SimContext, projectId: string, fromId: string, toId: string): Result<{ customer_id: string; target_customer_id: string; subscription_ids: string[]; transaction_ids: string[] }> {
  if (fromId === toId) return fail('parameter_error', 'A customer cannot transfer to itself', 'target_customer_id');
  const from = customerOf(ctx, projectId, fromId, false);
  if (from === undefined) return fail('resource_missing', `Customer ${fromId} not found`, 'customer_id');
  if (from.subscriptions.length === 0 && from.purchases.length === 0) return fail('unprocessable_entity_error', 'The customer has nothing to transfer', 'customer_id');
  const to = customerOf(ctx, projectId, toId, true);
  if (to === undefined) return fail('server_error', 'customer could not be created');
  const owner = { project_id: projectId, customer_id: toId };
  for (const sub of from.subscriptions) {
    sub.customer_id = toId;
    to.subscriptions.push(sub);
    ctx.subscriptions.set(sub.id, owner);
  }
  for (const p of from.purchases) {
    to.purchases.push(p);
    ctx.purchases.set(p.transaction_id, owner);
  }
  const subscriptionIds = from.subscriptions.map((s) => s.id);
  const transactionIds = from.purchases.map((p) => p.transaction_id);
  // The event is in the store and environment of what moved (a subscription's, else a purchase's).
  const first = from.subscriptions[0] ?? from.purchases[0];
  from.subscriptions = [];
  from.purchases = [];
  from.last_seen_at = ctx.now;
  to.last_seen_at = ctx.now;
  emitEvent(ctx, projectId, transferEvent(eventContext(ctx, first?.environment, first?.store), [fromId], [toId]));
  return ok({ customer_id: fromId, target_customer_id: toId, subscription_ids: subscriptionIds, transaction_ids: transactionIds });
}
