/**
 * The state-transition reducer: folds one webhook event into a subscriber record.
 *
 * Order-independent by construction: state, product, period and trial fields follow the event with
 * the latest key (time, lifecycle precedence, id); counters are sums; activity and first/last event
 * times are max/min. Duplicate deliveries must be dropped before this function (see `foldEvents`).
 */
import type { HandledEvent, HandledEventType } from '../events/webhookSchema.js';
import { revenueOf } from '../revenue/subscriptionRevenue.js';
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
  // A billing problem moves the subscriber to billing_issue, except out of churned: an expired
  // subscription whose payment then fails is still churned (a billing failure never lowers the score).
  let billingProblem = false;
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
      billingProblem = event.cancel_reason === 'BILLING_ERROR';
      nextState = billingProblem ? 'billing_issue' : 'pending_cancel';
      break;
    case 'UNCANCELLATION':
      rank = EVENT_PRECEDENCE.UNCANCELLATION;
      activity = ACTIVITY_EVENT_TYPES.UNCANCELLATION;
      // Un-cancelling (or changing product, below) during a free trial leaves the subscription in its
      // trial: the event's period_type says which period it is in.
      nextState = event.period_type === 'TRIAL' ? 'trialing' : 'active';
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
      billingProblem = true;
      failures = 1;
      break;
    case 'PRODUCT_CHANGE':
      rank = EVENT_PRECEDENCE.PRODUCT_CHANGE;
      activity = ACTIVITY_EVENT_TYPES.PRODUCT_CHANGE;
      nextState = event.period_type === 'TRIAL' ? 'trialing' : 'active';
      product = event.new_product_id ?? null;
      break;
    case 'NON_RENEWING_PURCHASE':
      rank = EVENT_PRECEDENCE.NON_RENEWING_PURCHASE;
      activity = ACTIVITY_EVENT_TYPES.NON_RENEWING_PURCHASE;
      // A top-up: activity only. Its product is not the subscription's, and it has no period.
      break;
    default:
      // Exhaustive: a new handled type fails to compile here until it has a case. A switch, not
      // ts-pattern's match(), because this is the ingest hot path (see docs/architecture.md).
      return event satisfies never;
  }
  if (nextState !== null) {
    // Every lifecycle event names the subscription's product (unless a product change named the
    // new one) and the end of its current period.
    product ??= event.product_id ?? null;
    expiration = event.expiration_at_ms ?? null;
  }

  const key: EventKey = { at, rank, id: event.id };
  const prev = subscriber;

  // The state is that of the latest lifecycle event, where billing problems after the latest other
  // lifecycle event (`baseKey`) follow it: churned stays churned, anything else is billing_issue.
  // Both keys together make this independent of delivery order.
  let state: SubscriberState = prev === undefined ? 'active' : prev.state;
  let stateKey = prev === undefined ? null : prev.state_key;
  let baseKey = prev === undefined ? null : (prev.base_state_key ?? null);
  if (nextState !== null) {
    if (billingProblem) {
      // An earlier billing problem changes nothing: the events after it already decide.
      if (isLaterKey(key, stateKey)) {
        state = state === 'churned' ? 'churned' : 'billing_issue';
        stateKey = key;
      }
    } else if (isLaterKey(key, stateKey)) {
      state = nextState;
      stateKey = key;
      baseKey = key;
    } else if (isLaterKey(key, baseKey)) {
      // Only billing problems come after this event: they follow it.
      state = nextState === 'churned' ? 'churned' : 'billing_issue';
      baseKey = key;
    }
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

  // Revenue follows the latest lifecycle event that charged something (a top-up's price is not the subscription's).
  let revenue = prev === undefined ? null : (prev.revenue ?? null);
  let revenueKey = prev === undefined ? null : (prev.revenue_key ?? null);
  const charged = nextState === null ? null : revenueOf(event);
  if (charged !== null && isLaterKey(key, revenueKey)) {
    revenue = charged;
    revenueKey = key;
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
    base_state_key: baseKey,
    product_id: productId,
    product_key: productKey,
    period_ends_at: periodEndsAt,
    period_key: periodKey,
    revenue,
    revenue_key: revenueKey,
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
