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
  return {
    id: s.subscription_id ?? '',
    state: s.state,
    lifecycle_state: s.lifecycle_state ?? s.state,
    state_key: s.state_key,
    base_state_key: s.base_state_key ?? null,
    refund_key: s.refund_key ?? null,
    reversal_key: s.reversal_key ?? null,
    cancel_reason: s.cancel_reason ?? null,
    product_id: s.product_id,
    product_key: s.product_key,
    period_ends_at: s.period_ends_at,
    period_key: s.period_key,
    revenue: s.revenue ?? null,
    revenue_key: s.revenue_key ?? null,
    grace_ends_at: s.grace_ends_at ?? null,
    grace_key: s.grace_key ?? null,
    auto_resume_at: s.auto_resume_at ?? null,
    pause_key: s.pause_key ?? null,
  };
}
