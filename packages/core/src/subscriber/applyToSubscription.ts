/**
 * The per-subscription half of the reducer: what one event of a subscription does to that
 * subscription's state, product, period, revenue, grace, pause and refund fields. Order-independent
 * by construction (each field follows the event with the latest key; see docs/rules.md §2).
 */
import { revenueOf, type ChargeFields } from '../revenue/subscriptionRevenue.js';
import { isLaterKey, isLaterRevenueKey } from './eventKey.js';
import { subscriptionRecordOf, type SubscriptionRecord, type SubscriptionView } from './subscription.js';
import type { EventKey, SubscriberState } from './subscriber.js';

/**
 * What one event says about its subscription, read once from the event by `applyEvent`.
 * `grace` and `resume` are `undefined` when the event does not speak about them.
 */
export interface SubscriptionEffect extends ChargeFields {
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
  /** The end of the period the event names (the period's, and the charge's for `revenueOf`), or null. */
  expiration_at_ms: number | null;
  grace: number | null | undefined;
  resume: number | null | undefined;
  /**
   * A lifecycle event: the subscription may take the revenue of its charge (the `ChargeFields`,
   * read by `revenueOf` only when it would be kept). The effect carries those fields itself, read
   * from the event once, so `revenueOf` reads one shape of object rather than every event type's.
   */
  charge: boolean;
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

/** A subscription's fields as the reducer writes them: a fresh record's own, every one present. */
export type SubscriptionFields = Omit<SubscriptionRecord, 'id'>;

/**
 * Given a subscription's fields (or undefined for its first event), its id and the effect of one of
 * its events, returns the subscription after that event. Pure: does not mutate its input.
 *
 * @example
 * applyToSubscription(undefined, 'tx_1', effect).state; // effect.nextState, for a first lifecycle event
 */
export function applyToSubscription(prev: SubscriptionView | undefined, id: string, effect: SubscriptionEffect): SubscriptionRecord {
  const next = subscriptionRecordOf(prev, id);
  applyEffect(next, effect);
  return next;
}

/**
 * Applies the effect of one event to a subscription's fields, in place: `target` is a record the
 * caller has just built (a copy of the previous one), never a record anyone else holds, so the
 * reducer stays pure while a customer with one subscription writes its fields straight into the new
 * subscriber record instead of building a subscription record to copy them from.
 */
export function applyEffect(target: SubscriptionFields, effect: SubscriptionEffect): void {
  const { key, nextState } = effect;
  // The state is that of the latest lifecycle event, where billing problems after the latest other
  // lifecycle event (`baseKey`) follow it: churned stays churned, anything else is billing_issue.
  // Both keys together make this independent of delivery order.
  // `lifecycle_state` is the state without a refund over it.
  let state: SubscriberState = target.lifecycle_state;
  let stateKey = target.state_key;
  let baseKey = target.base_state_key;
  let refundKey = target.refund_key;
  let reversalKey = target.reversal_key;
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
        target.cancel_reason = effect.cancelReason;
      }
    } else if (isLaterKey(key, stateKey)) {
      state = nextState;
      stateKey = key;
      baseKey = key;
      target.cancel_reason = effect.cancelReason;
    } else if (isLaterKey(key, baseKey)) {
      // Only billing problems come after this event: they follow it.
      state = isEnded(nextState) ? nextState : 'billing_issue';
      baseKey = key;
    }
  }
  target.state = refundInEffect(refundKey, reversalKey, baseKey) ? 'refunded' : state;
  target.lifecycle_state = state;
  target.state_key = stateKey;
  target.base_state_key = baseKey;
  target.refund_key = refundKey;
  target.reversal_key = reversalKey;

  if (effect.grace !== undefined && isLaterKey(key, target.grace_key)) {
    target.grace_ends_at = effect.grace;
    target.grace_key = key;
  }
  if (effect.resume !== undefined && isLaterKey(key, target.pause_key)) {
    target.auto_resume_at = effect.resume;
    target.pause_key = key;
  }
  if (effect.product !== null && isLaterKey(key, target.product_key)) {
    target.product_id = effect.product;
    target.product_key = key;
  }
  if (effect.expiration_at_ms !== null && isLaterKey(key, target.period_key)) {
    target.period_ends_at = effect.expiration_at_ms;
    target.period_key = key;
  }
  // Revenue follows the latest charge (a purchase or renewal with a price), else the latest other
  // lifecycle event with one (a top-up's price is not the subscription's): see isLaterRevenueKey.
  if (effect.charge && isLaterRevenueKey(key, target.revenue_key)) {
    const charged = revenueOf(effect, target.revenue);
    if (charged !== null) {
      target.revenue = charged;
      target.revenue_key = key;
    }
  }
}
