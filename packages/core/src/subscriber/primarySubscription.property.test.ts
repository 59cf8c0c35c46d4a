import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HandledEvent } from '../events/webhookSchema.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import { distinctEventsArb, handledEventArb, multiSubscriptionEventsArb } from '../testing/index.js';
import { applyEvent } from './applyEvent.js';
import { foldEvents } from './foldEvents.js';
import { MAX_SUBSCRIPTIONS, comparePrimary } from './primarySubscription.js';
import { hasSubscription, subscriptionOf, type SubscriptionRecord } from './subscription.js';
import type { Subscriber } from './subscriber.js';

const DAY = 86_400_000;
const idOf = (e: HandledEvent): string => e.original_transaction_id ?? '';

/** Each subscription of the events, folded alone (events of the other subscriptions left out). */
function foldedAlone(events: readonly HandledEvent[]): SubscriptionRecord[] {
  const ids = [...new Set(events.map(idOf))];
  const subs: SubscriptionRecord[] = [];
  for (const id of ids) {
    const alone = foldEvents(events.filter((e) => idOf(e) === id))!;
    if (hasSubscription(alone)) subs.push({ ...subscriptionOf(alone), id });
  }
  return subs;
}

/** The tracked subscriptions of a record: the list, or the top-level fields when it tracks one. */
const trackedOf = (s: Subscriber): SubscriptionRecord[] =>
  s.subscriptions ?? (hasSubscription(s) ? [subscriptionOf(s)] : []);

const permutedArb = multiSubscriptionEventsArb.chain((events) =>
  fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length })),
);

describe('a customer with several subscriptions', () => {
  it('folds any permutation of distinct events of several subscriptions to the same subscriber', () => {
    fc.assert(
      fc.property(permutedArb, ([events, permuted]) => {
        expect(foldEvents(permuted)).toEqual(foldEvents(events));
      }),
    );
  });

  it('tracks each subscription exactly as the fold of its own events alone', () => {
    fc.assert(
      fc.property(multiSubscriptionEventsArb, (events) => {
        const sortById = (subs: SubscriptionRecord[]) => [...subs].sort((a, b) => (a.id < b.id ? -1 : 1));
        expect(sortById(trackedOf(foldEvents(events)!))).toEqual(sortById(foldedAlone(events)));
      }),
    );
  });

  it("projects the primary subscription on the customer's fields and sums the counters over all of them", () => {
    fc.assert(
      fc.property(multiSubscriptionEventsArb, (events) => {
        const s = foldEvents(events)!;
        const subs = foldedAlone(events);
        fc.pre(subs.length > 0);
        const primary = [...subs].sort(comparePrimary)[0]!;
        expect(subscriptionOf(s)).toEqual(primary);
        expect(s.subscription_id).toBe(primary.id === '' ? null : primary.id);
        expect(s.subscriptions === null).toBe(subs.length === 1);
        expect(s.renewals).toBe(events.filter((e) => e.type === 'RENEWAL').length);
        expect(s.billing_failures).toBe(events.filter((e) => e.type === 'BILLING_ISSUE').length);
        expect(s.event_count).toBe(events.length);
      }),
    );
  });

  it('is churned only when every tracked subscription is churned', () => {
    fc.assert(
      fc.property(multiSubscriptionEventsArb, (events) => {
        const s = foldEvents(events)!;
        const ended = trackedOf(s).every((sub) => sub.state === 'churned');
        expect(s.state === 'churned').toBe(ended && trackedOf(s).length > 0);
      }),
    );
  });

  it('never raises the score when one subscription expires while another is active', () => {
    fc.assert(
      fc.property(
        multiSubscriptionEventsArb,
        fc.constantFrom('tx_a', 'tx_b', 'tx_c', null),
        fc.constantFrom('tx_a', 'tx_b', 'tx_c', null),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom('UNSUBSCRIBE', 'BILLING_ERROR', 'SUBSCRIPTION_PAUSED', 'CUSTOMER_SUPPORT', null),
        fc.integer({ min: 0, max: 60 * DAY }),
        (events, active, expiring, slot, reason, later) => {
          fc.pre(active !== expiring);
          const last = Math.max(...events.map((e) => e.event_timestamp_ms));
          // The active subscription: bought (not a trial) after every other event.
          const purchase: HandledEvent = {
            type: 'INITIAL_PURCHASE', id: 'buy_active', app_user_id: 'user_1', event_timestamp_ms: last + 1,
            period_type: 'NORMAL', original_transaction_id: active, expiration_at_ms: last + 30 * DAY,
          };
          // The other one expires at any time on the grid.
          const expiration: HandledEvent = {
            type: 'EXPIRATION', id: 'expire_other', app_user_id: 'user_1', event_timestamp_ms: events[0]!.event_timestamp_ms + (slot - 20) * (DAY / 4),
            expiration_reason: reason, original_transaction_id: expiring, expiration_at_ms: null,
          };
          const now = last + 1 + later;
          const before = foldEvents([...events, purchase])!;
          const after = foldEvents([...events, purchase, expiration])!;
          expect(before.state).toBe('active');
          expect(after.state).toBe('active');
          expect(scoreSubscriber(after, now).score).toBeLessThanOrEqual(scoreSubscriber(before, now).score);
        },
      ),
    );
  });
});

describe('the record with many subscriptions', () => {
  it(`stays bounded: at most ${MAX_SUBSCRIPTIONS} tracked, the primary among them, counters still the sums`, () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(handledEventArb, fc.integer({ min: 0, max: 30 })), { selector: ([e]) => e.id, minLength: 1, maxLength: 60 }),
        (pairs) => {
          const events = pairs.map(([e, n]) => ({ ...e, original_transaction_id: `tx_${n}` }));
          const s = foldEvents(events)!;
          const tracked = trackedOf(s);
          expect(tracked.length).toBeLessThanOrEqual(MAX_SUBSCRIPTIONS);
          if (tracked.length > 0) expect(tracked.map((t) => t.id)).toContain(s.subscription_id);
          expect(s.renewals).toBe(events.filter((e) => e.type === 'RENEWAL').length);
          expect(JSON.stringify(s).length).toBeLessThan(1800 + MAX_SUBSCRIPTIONS * 900);
        },
      ),
    );
  });
});

describe('a customer with one subscription', () => {
  it('folds as before: the same subscriber with every event of one original_transaction_id as without one, but for subscription_id', () => {
    fc.assert(
      fc.property(distinctEventsArb, (events) => {
        const plain = foldEvents(events)!;
        const named = foldEvents(events.map((e) => ({ ...e, original_transaction_id: 'tx_1' })))!;
        expect(plain.subscriptions).toBeNull();
        expect(plain.subscription_id).toBeNull();
        expect(named).toEqual({ ...plain, subscription_id: hasSubscription(plain) ? 'tx_1' : null });
      }),
    );
  });

  it('keeps folding a record stored by an older version (no subscription_id or subscriptions) to the same subscriber', () => {
    fc.assert(
      fc.property(distinctEventsArb, fc.nat(), (events, cut) => {
        const named = events.map((e) => ({ ...e, original_transaction_id: 'tx_1' }));
        const at = cut % named.length;
        const { subscription_id: _id, subscriptions: _subs, ...older } = foldEvents(named.slice(0, at + 1))!;
        let s: Subscriber = older;
        const rest = named.slice(at + 1);
        fc.pre(rest.length > 0);
        for (const e of rest) s = applyEvent(s, e);
        // Every field as a record stored now gets; the subscription's id once an event after the cut names it.
        const full = foldEvents(named)!;
        const namedAfter = rest.some((e) => hasSubscription(applyEvent(undefined, e)));
        expect(s).toEqual({ ...full, subscription_id: namedAfter ? full.subscription_id : undefined });
      }),
    );
  });
});
