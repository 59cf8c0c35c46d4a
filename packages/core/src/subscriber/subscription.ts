/**
 * One subscription of a customer, as the subscriber record tracks it: the fields that follow that
 * subscription's own events (state, product, period, revenue, grace, pause, refund), keyed by its
 * `original_transaction_id`. The customer's top-level fields are the projection of its primary
 * subscription (see `primarySubscription`); counters, trial, activity and identity stay customer-level.
 */
import type { Subscriber } from './subscriber.js';

/** The per-subscription fields of a subscriber record, as a record stored by any version may hold them. */
export type SubscriptionView = Pick<
  Subscriber,
  | 'state'
  | 'lifecycle_state'
  | 'state_key'
  | 'base_state_key'
  | 'refund_key'
  | 'reversal_key'
  | 'cancel_reason'
  | 'product_id'
  | 'product_key'
  | 'period_ends_at'
  | 'period_key'
  | 'revenue'
  | 'revenue_key'
  | 'grace_ends_at'
  | 'grace_key'
  | 'auto_resume_at'
  | 'pause_key'
>;

/**
 * One tracked subscription: `id` is its `original_transaction_id` (`''` for the customer's implicit
 * subscription, which events without one belong to), then the same fields as the subscriber's
 * top-level ones, with the same meaning (docs/rules.md §2).
 */
export interface SubscriptionRecord extends Required<SubscriptionView> {
  id: string;
}

/**
 * Given the per-subscription fields of a record, returns whether any subscription event was applied
 * to them (every subscription event sets at least one of these keys; a customer seen only through
 * top-ups or temporary grants has none). Pure.
 *
 * @example
 * hasSubscription(applyEvent(undefined, topUp)); // false
 */
export function hasSubscription(view: SubscriptionView): boolean {
  return (
    view.state_key !== null ||
    (view.base_state_key ?? null) !== null ||
    (view.refund_key ?? null) !== null ||
    (view.reversal_key ?? null) !== null ||
    view.period_key !== null ||
    (view.grace_key ?? null) !== null ||
    (view.pause_key ?? null) !== null
  );
}

/**
 * Given a subscriber record that tracks one subscription in its top-level fields (any version),
 * returns that subscription as a record, absent fields read as the reducer reads them. Pure.
 *
 * @example
 * subscriptionOf(subscriber).id; // subscriber.subscription_id ?? ''
 */
export function subscriptionOf(s: Subscriber): SubscriptionRecord {
  return subscriptionRecordOf(s, s.subscription_id ?? '');
}

/**
 * Given a subscription's fields as any version stored them (or undefined for a subscription not seen
 * yet: active, no keys) and its id, returns a new subscription record, absent fields read as the
 * reducer reads them. Pure.
 *
 * @example
 * subscriptionRecordOf(undefined, 'tx_1').state; // 'active'
 */
export function subscriptionRecordOf(view: SubscriptionView | undefined, id: string): SubscriptionRecord {
  const none = view === undefined;
  return {
    id,
    state: none ? 'active' : view.state,
    lifecycle_state: none ? 'active' : (view.lifecycle_state ?? view.state),
    state_key: none ? null : view.state_key,
    base_state_key: none ? null : (view.base_state_key ?? null),
    refund_key: none ? null : (view.refund_key ?? null),
    reversal_key: none ? null : (view.reversal_key ?? null),
    cancel_reason: none ? null : (view.cancel_reason ?? null),
    product_id: none ? null : view.product_id,
    product_key: none ? null : view.product_key,
    period_ends_at: none ? null : view.period_ends_at,
    period_key: none ? null : view.period_key,
    revenue: none ? null : (view.revenue ?? null),
    revenue_key: none ? null : (view.revenue_key ?? null),
    grace_ends_at: none ? null : (view.grace_ends_at ?? null),
    grace_key: none ? null : (view.grace_key ?? null),
    auto_resume_at: none ? null : (view.auto_resume_at ?? null),
    pause_key: none ? null : (view.pause_key ?? null),
  };
}
