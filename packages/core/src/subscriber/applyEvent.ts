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

/** The state an event moves a subscriber to, or null for an event that does not change state. */
export function nextStateFor(event: HandledEvent): SubscriberState | null {
  switch (event.type) {
    case 'INITIAL_PURCHASE':
      return event.period_type === 'TRIAL' ? 'trialing' : 'active';
    case 'RENEWAL':
      return 'active';
    case 'CANCELLATION':
      // The billing service sends CANCELLATION(BILLING_ERROR) with BILLING_ISSUE when a charge fails:
      // an involuntary billing problem, not a voluntary cancellation.
      return event.cancel_reason === 'BILLING_ERROR' ? 'billing_issue' : 'pending_cancel';
    case 'UNCANCELLATION':
      return 'active';
    case 'EXPIRATION':
      return 'churned';
    case 'BILLING_ISSUE':
      return 'billing_issue';
    case 'PRODUCT_CHANGE':
      return 'active';
    case 'NON_RENEWING_PURCHASE':
      return null;
  }
}

/** The product an event records as current, or null when it records none. */
function productFor(event: HandledEvent): string | null {
  switch (event.type) {
    case 'PRODUCT_CHANGE':
      return event.new_product_id ?? event.product_id ?? null;
    case 'NON_RENEWING_PURCHASE':
      return null; // a top-up is not the subscription's product
    default:
      return event.product_id ?? null;
  }
}

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
  const at = event.event_timestamp_ms;
  const key: EventKey = { at, rank: EVENT_PRECEDENCE[event.type], id: event.id };
  const prev = subscriber;

  let state: SubscriberState = prev?.state ?? 'active';
  let stateKey = prev?.state_key ?? null;
  const nextState = nextStateFor(event);
  if (nextState !== null && isLaterKey(key, stateKey)) {
    state = nextState;
    stateKey = key;
  }

  let productId = prev?.product_id ?? null;
  let productKey = prev?.product_key ?? null;
  const product = productFor(event);
  if (product !== null && isLaterKey(key, productKey)) {
    productId = product;
    productKey = key;
  }

  let periodEndsAt = prev?.period_ends_at ?? null;
  let periodKey = prev?.period_key ?? null;
  const expiration = event.type === 'NON_RENEWING_PURCHASE' ? null : (event.expiration_at_ms ?? null);
  if (expiration !== null && isLaterKey(key, periodKey)) {
    periodEndsAt = expiration;
    periodKey = key;
  }

  let trialStartedAt = prev?.trial_started_at ?? null;
  let trialEndsAt = prev?.trial_ends_at ?? null;
  let trialKey = prev?.trial_key ?? null;
  if (event.type === 'INITIAL_PURCHASE' && event.period_type === 'TRIAL' && isLaterKey(key, trialKey)) {
    trialStartedAt = event.purchased_at_ms ?? at;
    trialEndsAt = event.expiration_at_ms ?? null;
    trialKey = key;
  }

  let convertedAt = prev?.trial_converted_at ?? null;
  let conversionKey = prev?.conversion_key ?? null;
  if (event.type === 'RENEWAL' && event.is_trial_conversion === true && isLaterKey(key, conversionKey)) {
    convertedAt = at;
    conversionKey = key;
  }

  const prevActivity = prev?.last_activity_at ?? null;
  const lastActivityAt =
    ACTIVITY_EVENT_TYPES[event.type] && (prevActivity === null || at > prevActivity) ? at : prevActivity;

  return {
    customer_id: prev?.customer_id ?? event.app_user_id,
    state,
    state_key: stateKey,
    product_id: productId,
    product_key: productKey,
    period_ends_at: periodEndsAt,
    period_key: periodKey,
    billing_failures: (prev?.billing_failures ?? 0) + (event.type === 'BILLING_ISSUE' ? 1 : 0),
    renewals: (prev?.renewals ?? 0) + (event.type === 'RENEWAL' ? 1 : 0),
    trial_started_at: trialStartedAt,
    trial_ends_at: trialEndsAt,
    trial_key: trialKey,
    trial_converted_at: convertedAt,
    conversion_key: conversionKey,
    last_activity_at: lastActivityAt,
    first_event_at: prev === undefined ? at : Math.min(prev.first_event_at, at),
    last_event_at: prev === undefined ? at : Math.max(prev.last_event_at, at),
    event_count: (prev?.event_count ?? 0) + 1,
  };
}
