// fast-check generators of handled webhook events for one customer.
import fc from 'fast-check';
import type { HandledEvent } from '../src/index.js';
import { HANDLED_EVENT_TYPES } from '../src/index.js';

const T0 = 1_762_000_000_000;
const DAY = 86_400_000;

/** Times on a coarse grid so that ties (same event_timestamp_ms) are common. */
const time = fc.integer({ min: 0, max: 40 }).map((n) => T0 + n * (DAY / 4));

/** One handled event for customer `user_1`, with an id drawn from a small pool unless made unique by the caller. */
export const handledEventArb: fc.Arbitrary<HandledEvent> = fc
  .record({
    type: fc.constantFrom(...HANDLED_EVENT_TYPES),
    id: fc.integer({ min: 0, max: 1_000_000 }).map((n) => `evt_${n}`),
    at: time,
    period_type: fc.constantFrom('TRIAL', 'NORMAL', null),
    cancel_reason: fc.constantFrom('UNSUBSCRIBE', 'BILLING_ERROR', null),
    is_trial_conversion: fc.boolean(),
    product_id: fc.constantFrom('pro_monthly', 'pro_annual', null),
    new_product_id: fc.constantFrom('pro_monthly', 'pro_annual', null),
    expires_in: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
  })
  .map(
    ({ type, id, at, expires_in, ...rest }) =>
      ({
        type,
        id,
        app_user_id: 'user_1',
        event_timestamp_ms: at,
        purchased_at_ms: at,
        expiration_at_ms: expires_in === null ? null : at + expires_in * DAY,
        ...rest,
      }) as HandledEvent,
  );

/** A list of events with distinct ids. */
export const distinctEventsArb = fc.uniqueArray(handledEventArb, { selector: (e) => e.id, minLength: 1, maxLength: 25 });
