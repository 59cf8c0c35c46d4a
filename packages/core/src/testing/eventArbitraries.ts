/** fast-check arbitraries of handled webhook events for one customer. */
import fc from 'fast-check';
import { DAY_MS } from '../config/defaultConfig.js';
import { HANDLED_EVENT_TYPES, type HandledEvent } from '../events/webhookSchema.js';

const T0 = 1_762_000_000_000;
const DAY = DAY_MS;

/** Times on a coarse grid so that ties (same event_timestamp_ms) are common. */
const time = fc.integer({ min: 0, max: 40 }).map((n) => T0 + n * (DAY / 4));

/**
 * One handled event for customer `user_1`, around 2025-11, with an id drawn from a large pool (use
 * `distinctEventsArb` for unique ids). Every handled type, with the fields that change what it means
 * (cancel and expiration reasons, grace end, resume time, original id and aliases, the promotional
 * store) on any type.
 *
 * @example
 * fc.assert(fc.property(handledEventArb, (event) => applyEvent(undefined, event).event_count === 1));
 */
export const handledEventArb: fc.Arbitrary<HandledEvent> = fc
  .record({
    type: fc.constantFrom(...HANDLED_EVENT_TYPES),
    id: fc.integer({ min: 0, max: 1_000_000 }).map((n) => `evt_${n}`),
    at: time,
    period_type: fc.constantFrom('TRIAL', 'NORMAL', null),
    cancel_reason: fc.constantFrom('UNSUBSCRIBE', 'BILLING_ERROR', 'CUSTOMER_SUPPORT', 'PRICE_INCREASE', null),
    expiration_reason: fc.constantFrom('UNSUBSCRIBE', 'BILLING_ERROR', 'SUBSCRIPTION_PAUSED', null),
    grace_in: fc.option(fc.integer({ min: 0, max: 16 }), { nil: null }),
    resume_in: fc.option(fc.integer({ min: 1, max: 60 }), { nil: null }),
    original_app_user_id: fc.constantFrom('$RCAnonymousID:0a1b', 'user_1', 'user_0', null),
    aliases: fc.option(fc.subarray(['$RCAnonymousID:0a1b', 'user_1', 'user_0', 'ユーザー', 'a@b', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7']), {
      nil: null,
    }),
    is_trial_conversion: fc.boolean(),
    product_id: fc.constantFrom('pro_monthly', 'pro_annual', null),
    new_product_id: fc.constantFrom('pro_monthly', 'pro_annual', null),
    expires_in: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
    // PROMOTIONAL: a granted entitlement (its grant, revoke or expiry), whatever the type.
    store: fc.constantFrom('APP_STORE', 'APP_STORE', 'PROMOTIONAL', null),
  })
  .map(
    ({ type, id, at, expires_in, grace_in, resume_in, ...rest }) =>
      ({
        type,
        id,
        app_user_id: 'user_1',
        event_timestamp_ms: at,
        purchased_at_ms: at,
        expiration_at_ms: expires_in === null ? null : at + expires_in * DAY,
        grace_period_expiration_at_ms: grace_in === null ? null : at + grace_in * (DAY / 2),
        auto_resume_at_ms: resume_in === null ? null : at + resume_in * DAY,
        ...rest,
      }) as HandledEvent,
  );

/**
 * A list of 1 to 25 events of one customer with distinct ids, on a coarse time grid so ties are common.
 *
 * @example
 * fc.assert(fc.property(distinctEventsArb, (events) => foldEvents(events)?.event_count === events.length));
 */
export const distinctEventsArb = fc.uniqueArray(handledEventArb, { selector: (e) => e.id, minLength: 1, maxLength: 25 });

/** The subscriptions of `multiSubscriptionEventsArb`: three ids and the implicit one (no id). */
const SUBSCRIPTION_IDS = ['tx_a', 'tx_b', 'tx_c', null] as const;

/**
 * A list of 1 to 30 events of one customer with distinct ids, each of one of up to four
 * subscriptions (`original_transaction_id` `tx_a`, `tx_b`, `tx_c`, or none: the implicit one), on
 * the coarse time grid of `distinctEventsArb`.
 *
 * @example
 * fc.assert(fc.property(multiSubscriptionEventsArb, (events) => (foldEvents(events)?.subscriptions?.length ?? 1) <= 4));
 */
export const multiSubscriptionEventsArb: fc.Arbitrary<HandledEvent[]> = fc.uniqueArray(
  fc.tuple(handledEventArb, fc.constantFrom(...SUBSCRIPTION_IDS)).map(([event, tx]) => ({ ...event, original_transaction_id: tx })),
  { selector: (e) => e.id, minLength: 1, maxLength: 30 },
);

/** The ids of `aliasedEventsArb`'s people: an anonymous id, two identified ones and a few more. */
const PERSON_IDS = ['$RCAnonymousID:0a1b', '$RCAnonymousID:9f', 'user_1', 'user_2', 'user_3', 'a@b'] as const;

/**
 * A list of 1 to 25 events with distinct ids naming a few people under several ids: each event's
 * `app_user_id`, `original_app_user_id` (or none) and `aliases` (or none) drawn from six ids, so
 * events link ids into groups (RevenueCat's aliasing after a login) in many shapes.
 *
 * @example
 * fc.assert(fc.property(aliasedEventsArb, (events) => groupByIdentity(events).size <= 6));
 */
export const aliasedEventsArb: fc.Arbitrary<HandledEvent[]> = fc.uniqueArray(
  fc
    .tuple(
      handledEventArb,
      fc.constantFrom(...PERSON_IDS),
      fc.option(fc.constantFrom(...PERSON_IDS), { nil: null }),
      fc.option(fc.subarray([...PERSON_IDS], { maxLength: 3 }), { nil: null }),
    )
    .map(([event, app, original, aliases]): HandledEvent => ({ ...event, app_user_id: app, original_app_user_id: original, aliases })),
  { selector: (e) => e.id, minLength: 1, maxLength: 25 },
);
