/**
 * The per-subscription half of the reducer: what one event of a subscription does to that
 * subscription's state, product, period, revenue, grace, pause and refund fields. Order-independent
 * by construction (each field follows the event with the latest key; see docs/rules.md §2).
 */
import type { HandledEvent } from '../events/webhookSchema.js';
import { revenueOf } from '../revenue/subscriptionRevenue.js';
import { isLaterKey, isLaterRevenueKey } from './eventKey.js';
import type { SubscriptionRecord, SubscriptionView } from './subscription.js';
import type { EventKey, SubscriberState } from './subscriber.js';

/**
 * What one event says about its subscription, read once from the event by `applyEvent`.
 * `grace` and `resume` are `undefined` when the event does not speak about them.
 */
export interface SubscriptionEffect {
  key: EventKey;
  /** The lifecycle state the event moves to, or null (a pause or an extension: no state). */
  nextState: SubscriberState | null;
  /** BILLING_ISSUE, or CANCELLATION with BILLING_ERROR. */
  billingProblem: boolean;
  /** CANCELLATION or EXPIRATION with CUSTOMER_SUPPORT. */
  refund: boolean;
  /** REFUND_REVERSED. */
  reversal: boolean;
  cancelReason: string | null;
  product: string | null;
  expiration: number | null;
  grace: number | null | undefined;
  resume: number | null | undefined;
  /** A lifecycle event, whose revenue (`revenueOf`, read only when it would be kept) the subscription may take; else null. */
  charge: HandledEvent | null;
}

/**
 * Lifecycle states a billing problem does not leave: the subscription already ended. (A refund lies
 * over the lifecycle state and stays through billing problems by itself; `refunded` is here for
 * records whose state was stored as refunded without a `lifecycle_state`.)
 */
const isEnded = (state: SubscriberState): boolean => state === 'churned' || state === 'refunded';

/**
 * Whether a refund is in effect: the latest refund comes after the latest lifecycle event that is
 * not a billing problem (a later purchase or renewal starts over) and no reversal came after it.
 */
function refundInEffect(refundKey: EventKey | null, reversalKey: EventKey | null, baseKey: EventKey | null): boolean {
  if (refundKey === null) return false;
  if (baseKey !== null && !isLaterKey(refundKey, baseKey)) return false;
  return reversalKey === null || !isLaterKey(reversalKey, refundKey);
}

/**
 * Given a subscription's fields (or undefined for its first event), its id and the effect of one of
 * its events, returns the subscription after that event. Pure: does not mutate its input.
 *
 * @example
 * applyToSubscription(undefined, 'tx_1', effect).state; // effect.nextState, for a first lifecycle event
 */
export function applyToSubscription(prev: SubscriptionView | undefined, id: string, effect: SubscriptionEffect): SubscriptionRecord {
  const { key, nextState } = effect;
  // The state is that of the latest lifecycle event, where billing problems after the latest other
  // lifecycle event (`baseKey`) follow it: churned stays churned, anything else is billing_issue.
  // Both keys together make this independent of delivery order.
  // `state` here is the lifecycle state (without a refund over it); records stored before refunds
  // were modelled have no `lifecycle_state` and their state is it.
  let state: SubscriberState = prev === undefined ? 'active' : (prev.lifecycle_state ?? prev.state);
  let stateKey = prev === undefined ? null : prev.state_key;
  let baseKey = prev === undefined ? null : (prev.base_state_key ?? null);
  let reason = prev === undefined ? null : (prev.cancel_reason ?? null);
  let refundKey = prev === undefined ? null : (prev.refund_key ?? null);
  let reversalKey = prev === undefined ? null : (prev.reversal_key ?? null);
  // A reversal lies over the lifecycle state like the refund it undoes, except a reversal after the
  // refunded period ended: that one is the subscription's end (nextState churned), a lifecycle event.
  if (effect.reversal && isLaterKey(key, reversalKey)) reversalKey = key;
  if (effect.refund) {
    if (isLaterKey(key, refundKey)) refundKey = key;
  } else if (effect.reversal && nextState !== 'churned') {
    // Gives back the state the refund hid.
  } else if (nextState !== null) {
    if (effect.billingProblem) {
      // An earlier billing problem changes nothing: the events after it already decide.
      if (isLaterKey(key, stateKey)) {
        state = isEnded(state) ? state : 'billing_issue';
        stateKey = key;
        reason = effect.cancelReason;
      }
    } else if (isLaterKey(key, stateKey)) {
      state = nextState;
      stateKey = key;
      baseKey = key;
      reason = effect.cancelReason;
    } else if (isLaterKey(key, baseKey)) {
      // Only billing problems come after this event: they follow it.
      state = isEnded(nextState) ? nextState : 'billing_issue';
      baseKey = key;
    }
  }

  let graceEndsAt = prev === undefined ? null : (prev.grace_ends_at ?? null);
  let graceKey = prev === undefined ? null : (prev.grace_key ?? null);
  if (effect.grace !== undefined && isLaterKey(key, graceKey)) {
    graceEndsAt = effect.grace;
    graceKey = key;
  }

  let resumeAt = prev === undefined ? null : (prev.auto_resume_at ?? null);
  let pauseKey = prev === undefined ? null : (prev.pause_key ?? null);
  if (effect.resume !== undefined && isLaterKey(key, pauseKey)) {
    resumeAt = effect.resume;
    pauseKey = key;
  }

  let productId = prev === undefined ? null : prev.product_id;
  let productKey = prev === undefined ? null : prev.product_key;
  if (effect.product !== null && isLaterKey(key, productKey)) {
    productId = effect.product;
    productKey = key;
  }

  let periodEndsAt = prev === undefined ? null : prev.period_ends_at;
  let periodKey = prev === undefined ? null : prev.period_key;
  if (effect.expiration !== null && isLaterKey(key, periodKey)) {
    periodEndsAt = effect.expiration;
    periodKey = key;
  }

  // Revenue follows the latest charge (a purchase or renewal with a price), else the latest other
  // lifecycle event with one (a top-up's price is not the subscription's): see isLaterRevenueKey.
  let revenue = prev === undefined ? null : (prev.revenue ?? null);
  let revenueKey = prev === undefined ? null : (prev.revenue_key ?? null);
  if (effect.charge !== null && isLaterRevenueKey(key, revenueKey)) {
    const charged = revenueOf(effect.charge);
    if (charged !== null) {
      revenue = charged;
      revenueKey = key;
    }
  }

  const shown = refundInEffect(refundKey, reversalKey, baseKey) ? 'refunded' : state;
  return {
    id,
    state: shown,
    lifecycle_state: state,
    state_key: stateKey,
    base_state_key: baseKey,
    refund_key: refundKey,
    reversal_key: reversalKey,
    cancel_reason: reason,
    product_id: productId,
    product_key: productKey,
    period_ends_at: periodEndsAt,
    period_key: periodKey,
    revenue,
    revenue_key: revenueKey,
    grace_ends_at: graceEndsAt,
    grace_key: graceKey,
    auto_resume_at: resumeAt,
    pause_key: pauseKey,
  };
}
