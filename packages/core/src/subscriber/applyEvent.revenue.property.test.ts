/**
 * The reducer's revenue against its definition (docs/rules.md §9): each subscription's revenue is
 * `revenueOf` the latest of its lifecycle events that charged (a price above 0), by
 * `isLaterRevenueKey`, in any delivery order. Every charge field is drawn from its own values, so
 * a field read from the wrong place (or passed in the wrong position) shows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../config/defaultConfig.js';
import type { HandledEvent } from '../events/webhookSchema.js';
import { revenueOf, type SubscriptionRevenue } from '../revenue/subscriptionRevenue.js';
import { foldEvents } from './foldEvents.js';
import { EVENT_PRECEDENCE, isLaterRevenueKey } from './eventKey.js';
import type { EventKey } from './subscriber.js';

const T0 = 1_762_000_000_000;

/** Lifecycle types whose every event here charges the subscription it names (no promotional store, a period end). */
const CHARGING_TYPES = ['INITIAL_PURCHASE', 'RENEWAL', 'UNCANCELLATION', 'BILLING_ISSUE', 'PRODUCT_CHANGE', 'CANCELLATION', 'EXPIRATION', 'REFUND_REVERSED'] as const;

const pricedEventArb = (transactions: readonly string[]): fc.Arbitrary<HandledEvent> =>
  fc
    .record({
      type: fc.constantFrom(...CHARGING_TYPES),
      id: fc.integer({ min: 0, max: 1_000_000 }).map((n) => `evt_${n}`),
      // Coarse, so that ties in time (then rank, then id) are common.
      at: fc.integer({ min: 0, max: 12 }).map((n) => T0 + n * DAY_MS),
      days: fc.constantFrom(7, 30, 365),
      txn: fc.constantFrom(...transactions),
      price: fc.constantFrom(0, -4.99, 4.99, 9.99, 19.99, null),
      price_in_purchased_currency: fc.constantFrom(1.25, 8.49, 17.5, null),
      currency: fc.constantFrom('USD', 'EUR', 'JPY', null),
      takehome_percentage: fc.constantFrom(0.7, 0.85, null),
      store: fc.constantFrom('APP_STORE', 'PLAY_STORE', 'STRIPE'),
    })
    .map(
      ({ type, id, at, days, txn, ...charge }) =>
        ({
          type,
          id,
          app_user_id: 'user_1',
          event_timestamp_ms: at,
          purchased_at_ms: at - DAY_MS,
          expiration_at_ms: at + days * DAY_MS,
          original_transaction_id: txn,
          product_id: 'pro',
          ...charge,
        }) as HandledEvent,
    );

const keyOf = (event: HandledEvent): EventKey => ({ at: event.event_timestamp_ms, rank: EVENT_PRECEDENCE[event.type as keyof typeof EVENT_PRECEDENCE], id: event.id });

/** The definition: `revenueOf` the latest event that charged, by `isLaterRevenueKey`; null without one. */
function expectedRevenue(events: readonly HandledEvent[]): SubscriptionRevenue | null {
  let latest: HandledEvent | null = null;
  for (const event of events) {
    if (revenueOf(event) === null) continue;
    if (latest === null || isLaterRevenueKey(keyOf(event), keyOf(latest))) latest = event;
  }
  return latest === null ? null : revenueOf(latest);
}

describe('applyEvent: a subscription’s revenue', () => {
  it('is revenueOf its latest charge, field by field, in any delivery order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(pricedEventArb(['tx_1']), { selector: (e) => e.id, minLength: 1, maxLength: 12 }).chain((events) =>
          fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length })),
        ),
        ([events, shuffled]) => {
          const expected = expectedRevenue(events);
          expect(foldEvents(events)!.revenue).toEqual(expected);
          expect(foldEvents(shuffled)!.revenue).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is each subscription’s own when the customer has several', () => {
    fc.assert(
      fc.property(fc.uniqueArray(pricedEventArb(['tx_1', 'tx_2']), { selector: (e) => e.id, minLength: 2, maxLength: 14 }), (events) => {
        const record = foldEvents(events)!;
        const ofTransaction = (txn: string) => events.filter((e) => e.original_transaction_id === txn);
        const tracked = record.subscriptions ?? null;
        if (tracked === null) {
          // Every event named one subscription: the record's own fields are its.
          expect(record.revenue).toEqual(expectedRevenue(events));
          return;
        }
        for (const subscription of tracked) expect(subscription.revenue).toEqual(expectedRevenue(ofTransaction(subscription.id)));
      }),
      { numRuns: 300 },
    );
  });
});
