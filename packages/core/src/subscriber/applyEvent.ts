/**
 * The state-transition reducer: folds one webhook event into a subscriber record.
 *
 * Order-independent by construction: state, product, period and trial fields follow the event with
 * the latest key (time, lifecycle precedence, id); counters are sums; activity and first/last event
 * times are max/min. Duplicate deliveries must be dropped before this function (see `foldEvents`).
 */
import type { HandledEvent, HandledEventType } from '../events/webhookSchema.js';
import { EVENT_PRECEDENCE, isLaterKey } from './eventKey.js';
import type { EventKey, Subscriber, SubscriberState } from './subscriber.js';

/** Event types that are a user's own action and so count as activity. */
export const ACTIVITY_EVENT_TYPES = {
  INITIAL_PURCHASE: true,
  RENEWAL: false,
  CANCELLATION: false,
  UNCANCELLATION: true,
  EXPIRATION: false,
  BILLING_ISSUE: false,
  PRODUCT_CHANGE: true,
  NON_RENEWING_PURCHASE: true,
} as const satisfies Record<HandledEventType, boolean>;

/**
 * Given a subscriber (or undefined for the first event of a customer) and one handled event, returns
 * the next subscriber record. Pure: does not mutate its input.
 *
 * @example
 * const s1 = applyEvent(undefined, { type: 'INITIAL_PURCHASE', id: 'e1', app_user_id: 'u1',
 *   event_timestamp_ms: 1_700_000_000_000, period_type: 'TRIAL' });
 * s1.state; // 'trialing'
 */
export function applyEvent(subscriber: Subscriber | undefined, event: HandledEvent): Subscriber {
  // One switch reads every field this event type contributes, once: events of many shapes make each
  // property read megamorphic, so reading fewer of them is what keeps the reducer fast.
  const at = event.event_timestamp_ms;
  let nextState: SubscriberState | null = null;
  let product: string | null = null;
  let expiration: number | null = null;
  let trial = false;
  let conversion = false;
  let failures = 0;
  let renewals = 0;
  // Rank and activity come from the tables below, read as constants per case rather than looked up
  // by the type string.
  let rank: number;
  let activity: boolean;
  switch (event.type) {
    case 'INITIAL_PURCHASE':
      rank = EVENT_PRECEDENCE.INITIAL_PURCHASE;
      activity = ACTIVITY_EVENT_TYPES.INITIAL_PURCHASE;
      trial = event.period_type === 'TRIAL';
      nextState = trial ? 'trialing' : 'active';
      break;
    case 'RENEWAL':
      rank = EVENT_PRECEDENCE.RENEWAL;
      activity = ACTIVITY_EVENT_TYPES.RENEWAL;
      nextState = 'active';
      conversion = event.is_trial_conversion === true;
      renewals = 1;
      break;
    case 'CANCELLATION':
      rank = EVENT_PRECEDENCE.CANCELLATION;
      activity = ACTIVITY_EVENT_TYPES.CANCELLATION;
      // The billing service sends CANCELLATION(BILLING_ERROR) with BILLING_ISSUE when a charge fails:
      // an involuntary billing problem, not a voluntary cancellation, and no extra failure.
      nextState = event.cancel_reason === 'BILLING_ERROR' ? 'billing_issue' : 'pending_cancel';
      break;
    case 'UNCANCELLATION':
      rank = EVENT_PRECEDENCE.UNCANCELLATION;
      activity = ACTIVITY_EVENT_TYPES.UNCANCELLATION;
      nextState = 'active';
      break;
    case 'EXPIRATION':
      rank = EVENT_PRECEDENCE.EXPIRATION;
      activity = ACTIVITY_EVENT_TYPES.EXPIRATION;
      nextState = 'churned';
      break;
    case 'BILLING_ISSUE':
      rank = EVENT_PRECEDENCE.BILLING_ISSUE;
      activity = ACTIVITY_EVENT_TYPES.BILLING_ISSUE;
      nextState = 'billing_issue';
      failures = 1;
      break;
    case 'PRODUCT_CHANGE':
      rank = EVENT_PRECEDENCE.PRODUCT_CHANGE;
      activity = ACTIVITY_EVENT_TYPES.PRODUCT_CHANGE;
      nextState = 'active';
      product = event.new_product_id ?? null;
      break;
    case 'NON_RENEWING_PURCHASE':
      rank = EVENT_PRECEDENCE.NON_RENEWING_PURCHASE;
      activity = ACTIVITY_EVENT_TYPES.NON_RENEWING_PURCHASE;
      // A top-up: activity only. Its product is not the subscription's, and it has no period.
      break;
  }
  if (nextState !== null) {
    // Every lifecycle event names the subscription's product (unless a product change named the
    // new one) and the end of its current period.
    product ??= event.product_id ?? null;
    expiration = event.expiration_at_ms ?? null;
  }

  const key: EventKey = { at, rank, id: event.id };
  const prev = subscriber;

  let state: SubscriberState = prev === undefined ? 'active' : prev.state;
  let stateKey = prev === undefined ? null : prev.state_key;
  if (nextState !== null && isLaterKey(key, stateKey)) {
    state = nextState;
    stateKey = key;
  }

  let productId = prev === undefined ? null : prev.product_id;
  let productKey = prev === undefined ? null : prev.product_key;
  if (product !== null && isLaterKey(key, productKey)) {
    productId = product;
    productKey = key;
  }

  let periodEndsAt = prev === undefined ? null : prev.period_ends_at;
  let periodKey = prev === undefined ? null : prev.period_key;
  if (expiration !== null && isLaterKey(key, periodKey)) {
    periodEndsAt = expiration;
    periodKey = key;
  }

  let trialStartedAt = prev === undefined ? null : prev.trial_started_at;
  let trialEndsAt = prev === undefined ? null : prev.trial_ends_at;
  let trialKey = prev === undefined ? null : prev.trial_key;
  if (trial && isLaterKey(key, trialKey)) {
    trialStartedAt = event.purchased_at_ms ?? at;
    trialEndsAt = expiration;
    trialKey = key;
  }

  let convertedAt = prev === undefined ? null : prev.trial_converted_at;
  let conversionKey = prev === undefined ? null : prev.conversion_key;
  if (conversion && isLaterKey(key, conversionKey)) {
    convertedAt = at;
    conversionKey = key;
  }

  const prevActivity = prev === undefined ? null : prev.last_activity_at;
  const lastActivityAt =
    activity && (prevActivity === null || at > prevActivity) ? at : prevActivity;

  return {
    customer_id: prev === undefined ? event.app_user_id : prev.customer_id,
    state,
    state_key: stateKey,
    product_id: productId,
    product_key: productKey,
    period_ends_at: periodEndsAt,
    period_key: periodKey,
    billing_failures: (prev === undefined ? 0 : prev.billing_failures) + failures,
    renewals: (prev === undefined ? 0 : prev.renewals) + renewals,
    trial_started_at: trialStartedAt,
    trial_ends_at: trialEndsAt,
    trial_key: trialKey,
    trial_converted_at: convertedAt,
    conversion_key: conversionKey,
    last_activity_at: lastActivityAt,
    first_event_at: prev === undefined || at < prev.first_event_at ? at : prev.first_event_at,
    last_event_at: prev === undefined || at > prev.last_event_at ? at : prev.last_event_at,
    event_count: (prev === undefined ? 0 : prev.event_count) + 1,
  };
}
