import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY } from '@tenure/testkit';
import type { HandledEvent } from '../events/webhookSchema.js';
import { assessSubscriber } from '../recommend/assessSubscriber.js';
import { URGENCY_RANK } from '../recommend/recommendation.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import { distinctEventsArb, subscriberArb } from '../testing/index.js';
import { foldEvents } from './foldEvents.js';

const grantArb = fc
  .tuple(fc.integer({ min: 0, max: 40 }), fc.option(fc.integer({ min: 1, max: 24 }), { nil: null }), fc.nat(99))
  .map(
    ([quarter, hours, n]): HandledEvent => ({
      type: 'TEMPORARY_ENTITLEMENT_GRANT',
      id: `grant_${n}`,
      app_user_id: 'user_1',
      event_timestamp_ms: 1_762_000_000_000 + quarter * (DAY / 4),
      expiration_at_ms: hours === null ? null : 1_762_000_000_000 + quarter * (DAY / 4) + hours * 3_600_000,
      product_id: 'pro_monthly',
      price: 9.99,
      period_type: 'NORMAL',
    }),
  );

describe('the documented types beyond the seed: properties', () => {
  it('a temporary entitlement grant is never a purchase: state, product, period, counters, revenue and activity stay as without it', () => {
    fc.assert(
      fc.property(
        distinctEventsArb.map((events) => events.filter((e) => e.type !== 'TEMPORARY_ENTITLEMENT_GRANT')).filter((events) => events.length > 0),
        fc.uniqueArray(grantArb, { selector: (e) => e.id, minLength: 1, maxLength: 3 }),
        (events, grants) => {
          const without = foldEvents(events)!;
          const withGrants = foldEvents([...grants, ...events])!;
          for (const field of ['state', 'state_key', 'product_id', 'period_ends_at', 'renewals', 'billing_failures', 'last_activity_at', 'revenue'] as const) {
            expect(withGrants[field], field).toEqual(without[field]);
          }
          expect(withGrants.temporary_access_until).not.toBeUndefined();
        },
      ),
    );
  });

  it('a pause is not a loss: the paused expiration never scores above the same expiration as a churn', () => {
    fc.assert(
      // Without granted entitlements: a grant makes a churned customer a pending cancellation while a
      // paused one with a failing payment stays a billing issue, by design (docs/rules.md §2).
      fc.property(distinctEventsArb.map((events) => events.map((e) => (e.store === 'PROMOTIONAL' ? { ...e, store: 'APP_STORE' } : e))), fc.integer({ min: 0, max: 60 * DAY }), (events, later) => {
        const as = (reason: string) =>
          events.map((e) => (e.type === 'EXPIRATION' && e.expiration_reason !== 'CUSTOMER_SUPPORT' ? { ...e, expiration_reason: reason } : e));
        const now = Math.max(...events.map((e) => e.event_timestamp_ms)) + later;
        const paused = foldEvents(as('SUBSCRIPTION_PAUSED'))!;
        const churned = foldEvents(as('UNSUBSCRIBE'))!;
        expect(paused.state).not.toBe('churned');
        expect(scoreSubscriber(paused, now).score).toBeLessThanOrEqual(scoreSubscriber(churned, now).score);
      }),
      { numRuns: 300 },
    );
  });

  it('urgency only rises as a grace period runs out: never less urgent later', () => {
    fc.assert(
      fc.property(
        subscriberArb.map((s) => ({ ...s, state: 'billing_issue' as const })),
        fc.integer({ min: -20 * DAY, max: 40 * DAY }),
        fc.integer({ min: 0, max: 20 * DAY }),
        (subscriber, offset, step) => {
          const t1 = subscriber.last_event_at + offset;
          const top = (t: number) => URGENCY_RANK[assessSubscriber(subscriber, t).recommendations[0]!.urgency];
          expect(top(t1 + step)).toBeLessThanOrEqual(top(t1));
        },
      ),
      { numRuns: 300 },
    );
  });
});
