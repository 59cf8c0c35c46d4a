/**
 * The subscriber record: the state tenure keeps per customer, folded from webhook events.
 *
 * The record has a bounded size whatever the number of events: counters are plain numbers, each
 * "follows the latest event" field keeps only the ordering key of the event that set it, and a
 * customer with several subscriptions keeps at most `MAX_SUBSCRIPTIONS` of them.
 * Data records use snake_case, as on the wire (webhook payloads and the HTTP API).
 */

import type { SubscriptionRevenue } from '../revenue/subscriptionRevenue.js';
import type { SubscriptionRecord } from './subscription.js';

/**
 * The subscriber states of the retention service: the seed's five, `paused` (a Play subscription
 * paused at its period end: a win-back opportunity, not a loss) and `refunded` (the latest period
 * was refunded through customer support: a strong churn signal).
 */
export const SUBSCRIBER_STATES = ['trialing', 'active', 'pending_cancel', 'churned', 'billing_issue', 'paused', 'refunded'] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];

/**
 * Where an event stands in a subscriber's history: by event time, then by a fixed lifecycle
 * precedence (`rank`), then by event id. Comparing keys makes the fold independent of delivery order.
 */
export interface EventKey {
  at: number;
  rank: number;
  id: string;
}

export interface Subscriber {
  /**
   * The id the app uses now: the billing service's `app_user_id` of the latest event (by
   * `customer_key`). One person known under several ids (`original_app_user_id`, `aliases`) is one
   * record, named by this id (docs/rules.md §2, `groupByIdentity`).
   */
  customer_id: string;
  /** The latest event's key: the event that named `customer_id`. Absent in a record stored by an older version. */
  customer_key?: EventKey | null;
  /**
   * The state of the primary subscription. This and every per-subscription field below (state and
   * its keys, cancel reason, refund, product, period, revenue, grace, pause) are the customer's
   * primary subscription's (see `subscriptions`); counters, trial, activity and identity are the
   * customer's own.
   */
  state: SubscriberState;
  /** The latest lifecycle event; null until one is seen (a top-up-only customer). */
  state_key: EventKey | null;
  /**
   * The latest lifecycle event that is not a billing problem (`BILLING_ISSUE`,
   * `CANCELLATION` with `BILLING_ERROR`). Billing problems after it keep a churned subscriber
   * churned, so a billing failure never lowers the score, in any delivery order. Null (or absent in
   * a record stored by an older version) until one is seen.
   */
  base_state_key?: EventKey | null;
  /** The current product: `new_product_id` of a product change, else `product_id` of the latest event with one. */
  product_id: string | null;
  product_key: EventKey | null;
  /** `expiration_at_ms` of the latest event that carries one: the end of the current period. */
  period_ends_at: number | null;
  period_key: EventKey | null;
  /**
   * The current subscription's price, currency, store and period: from its latest charge
   * (INITIAL_PURCHASE, RENEWAL) with a positive `price`, else the latest other lifecycle event with
   * one (trials at 0 and refunds below 0 leave it; `isLaterRevenueKey`). Null (or absent in a record
   * stored by an older version) until one is seen. See `monthlyValueUsd`.
   */
  revenue?: SubscriptionRevenue | null;
  revenue_key?: EventKey | null;
  /**
   * The state without a refund over it: what a REFUND_REVERSED gives back. `state` is `refunded`
   * while the latest refund (`refund_key`: a CANCELLATION or EXPIRATION with CUSTOMER_SUPPORT) is
   * later than `base_state_key` and no reversal (`reversal_key`) came after it; else this. Absent in
   * a record stored by an older version (then `state` is it).
   */
  lifecycle_state?: SubscriberState;
  refund_key?: EventKey | null;
  reversal_key?: EventKey | null;
  /**
   * `cancel_reason` of the latest lifecycle event when it is a CANCELLATION (`PRICE_INCREASE` is its
   * own risk signal), else null. Absent in a record stored by an older version.
   */
  cancel_reason?: string | null;
  /**
   * `grace_period_expiration_at_ms` of the latest BILLING_ISSUE: access continues until then. It
   * applies while the subscriber is in billing_issue and that event is later than the latest other
   * lifecycle event (see `graceEndsAt`).
   */
  grace_ends_at?: number | null;
  grace_key?: EventKey | null;
  /** `auto_resume_at_ms` of the latest SUBSCRIPTION_PAUSED (or paused EXPIRATION that carries one): when a paused subscription comes back. */
  auto_resume_at?: number | null;
  pause_key?: EventKey | null;
  /** `expiration_at_ms` of the latest TEMPORARY_ENTITLEMENT_GRANT: temporary access during a store outage, not a purchase. */
  temporary_access_until?: number | null;
  temporary_key?: EventKey | null;
  /**
   * A granted entitlement (RevenueCat's promotional grant, sent in the `PROMOTIONAL` store): the end
   * of the access it gives, by the latest of its events (`promotional_key`): a grant's
   * `expiration_at_ms` (null: a grant without end), a revoke's or expiry's end. Access holds while
   * `promotional_key` is set and `now` is before the end (see `promotionalAccessAt`). Absent in a
   * record stored by an older version.
   */
  promotional_access_until?: number | null;
  promotional_key?: EventKey | null;
  /**
   * The customer's first app user id (`original_app_user_id`) and the other ids it was known by
   * (`aliases`, at most `MAX_ALIASES`, the smallest in code-point order, sorted): one person under
   * several ids. See `identityOf`.
   */
  original_app_user_id?: string | null;
  aliases?: string[];
  /**
   * The `original_transaction_id` of the primary subscription; null for the implicit subscription
   * (events without one) or before any subscription event. Absent (or undefined) in a record stored
   * by an older version, until a subscription event names it.
   */
  subscription_id?: string | null | undefined;
  /**
   * Every tracked subscription (sorted by id, the primary included) when the customer has two or
   * more; null (or absent in a record stored by an older version) with one or none, whose fields
   * are then the top-level ones: a single-subscription record stays small.
   */
  subscriptions?: SubscriptionRecord[] | null;
  /** Recorded billing failures (one per BILLING_ISSUE event), over every subscription. */
  billing_failures: number;
  /** Renewals, trial conversions included, over every subscription. */
  renewals: number;
  /** The customer's latest trial (of any subscription): started at `purchased_at_ms`, ends at `expiration_at_ms` of a TRIAL initial purchase. */
  trial_started_at: number | null;
  trial_ends_at: number | null;
  trial_key: EventKey | null;
  /** When the trial converted (`event_timestamp_ms` of a RENEWAL with `is_trial_conversion`). */
  trial_converted_at: number | null;
  conversion_key: EventKey | null;
  /** Latest user-initiated activity: purchases, product changes, uncancellations, top-ups, app-reported activity. */
  last_activity_at: number | null;
  /** Time of the earliest and latest event seen. */
  first_event_at: number;
  last_event_at: number;
  /** Number of events applied (duplicates are dropped before the reducer). */
  event_count: number;
}
