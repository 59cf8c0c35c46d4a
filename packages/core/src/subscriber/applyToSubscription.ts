/**
 * The per-subscription half of the reducer: what one event of a subscription does to that
 * subscription's state, product, period, revenue, grace, pause and refund fields. Order-independent
 * by construction (each field follows the event with the latest key; see docs/rules.md §2).
 */
import { revenueFrom } from '../revenue/subscriptionRevenue.js';
import { isLaterKey, isLaterRevenueKey } from './eventKey.js';
import type { SubscriptionRecord } from './subscription.js';
import type { EventKey, SubscriberState } from './subscriber.js';

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
 * Applies what one event says about its subscription (apart from its charge: `applyCharge`) to that
 * subscription's fields, in place: `target` is a record the caller has just built (a copy of the
 * previous one), never a record anyone else holds, so the reducer stays pure while a customer with
 * one subscription writes its fields straight into the new subscriber record instead of building a
 * subscription record to copy them from. The effect comes as arguments, read by `applyEvent` from
 * the event in its type's own case, so that no object is built per event to carry it.
 *
 * - `nextState`: the lifecycle state the event moves to, or null (a pause or an extension: no state);
 * - `billingProblem`: BILLING_ISSUE, or CANCELLATION with BILLING_ERROR;
 * - `refund`: CANCELLATION or EXPIRATION with CUSTOMER_SUPPORT; `reversal`: REFUND_REVERSED;
 * - `product` and `expiration` (the period's end): null when the event names none;
 * - `grace` and `resume`: `undefined` when the event does not speak about them.
 *
 * @example
 * applyEffect(fields, key, 'active', false, false, false, null, 'pro', periodEnd, undefined, undefined);
 */
export function applyEffect(
  target: SubscriptionFields,
  key: EventKey,
  nextState: SubscriberState | null,
  billingProblem: boolean,
  refund: boolean,
  reversal: boolean,
  cancelReason: string | null,
  product: string | null,
  expiration: number | null,
  grace: number | null | undefined,
  resume: number | null | undefined,
): void {
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
  if (reversal && isLaterKey(key, reversalKey)) reversalKey = key;
  if (refund) {
    if (isLaterKey(key, refundKey)) refundKey = key;
  } else if (reversal && nextState !== 'churned') {
    // Gives back the state the refund hid.
  } else if (nextState !== null) {
    if (billingProblem) {
      // An earlier billing problem changes nothing: the events after it already decide.
      if (isLaterKey(key, stateKey)) {
        state = isEnded(state) ? state : 'billing_issue';
        stateKey = key;
        target.cancel_reason = cancelReason;
      }
    } else if (isLaterKey(key, stateKey)) {
      state = nextState;
      stateKey = key;
      baseKey = key;
      target.cancel_reason = cancelReason;
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

  if (grace !== undefined && isLaterKey(key, target.grace_key)) {
    target.grace_ends_at = grace;
    target.grace_key = key;
  }
  if (resume !== undefined && isLaterKey(key, target.pause_key)) {
    target.auto_resume_at = resume;
    target.pause_key = key;
  }
  if (product !== null && isLaterKey(key, target.product_key)) {
    target.product_id = product;
    target.product_key = key;
  }
  if (expiration !== null && isLaterKey(key, target.period_key)) {
    target.period_ends_at = expiration;
    target.period_key = key;
  }
}

/**
 * Applies a lifecycle event's charge to its subscription's revenue, in place (as `applyEffect`):
 * revenue follows the latest charge (a purchase or renewal with a price), else the latest other
 * lifecycle event with one (a top-up's price is not the subscription's): see `isLaterRevenueKey`.
 * The charge's fields come as arguments, read from the event in its type's own case (`revenueFrom`).
 *
 * @example
 * applyCharge(fields, key, 9.99, purchasedAt, periodEnd, 9.99, 'USD', 0.7, 'APP_STORE');
 */
export function applyCharge(
  target: SubscriptionFields,
  key: EventKey,
  price: number | null | undefined,
  purchasedAt: number | null | undefined,
  expiration: number | null,
  inCurrency: number | null | undefined,
  currency: string | null | undefined,
  takehome: number | null | undefined,
  store: string | null | undefined,
): void {
  if (!isLaterRevenueKey(key, target.revenue_key)) return;
  const charged = revenueFrom(price, purchasedAt, expiration, inCurrency, currency, takehome, store, target.revenue);
  if (charged !== null) {
    target.revenue = charged;
    target.revenue_key = key;
  }
}
