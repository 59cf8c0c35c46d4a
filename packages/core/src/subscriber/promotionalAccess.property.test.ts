// A granted entitlement (RevenueCat's promotional grant) changes a subscriber's assessment only while
// it gives access, never raises its score, and a revoke is never a refund of a subscription.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../config/defaultConfig.js';
import type { HandledEvent } from '../events/webhookSchema.js';
import { assessSubscriber } from '../recommend/assessSubscriber.js';
import { nextAssessmentChange } from '../recommend/nextAssessmentChange.js';
import { distinctEventsArb } from '../testing/index.js';
import { foldEvents } from './foldEvents.js';
import { assessedAt, promotionalAccessAt } from './promotionalAccess.js';

/** A history without promotional events, a grant placed at or after its first event, and its length (null: no end). */
const withGrantArb = distinctEventsArb
  .map((events) => events.map((e): HandledEvent => (e.store === 'PROMOTIONAL' ? { ...e, store: 'APP_STORE' } : e)))
  .chain((events) => {
    const first = Math.min(...events.map((e) => e.event_timestamp_ms));
    return fc.record({
      events: fc.constant(events),
      at: fc.integer({ min: 0, max: 12 }).map((q) => first + q * (DAY_MS / 4)),
      days: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
      later: fc.integer({ min: 0, max: 60 * DAY_MS }),
    });
  })
  .map(({ events, at, days, later }) => {
    const grant: HandledEvent = {
      type: 'NON_RENEWING_PURCHASE',
      id: 'grant',
      app_user_id: 'user_1',
      event_timestamp_ms: at,
      purchased_at_ms: at,
      expiration_at_ms: days === null ? null : at + days * DAY_MS,
      store: 'PROMOTIONAL',
      period_type: 'PROMOTIONAL',
      product_id: 'rc_promo_pro_weekly',
    } as HandledEvent;
    const last = Math.max(at, ...events.map((e) => e.event_timestamp_ms));
    return { events, grant, now: last + later };
  });

describe('a promotional grant', () => {
  it('never raises the score (default rules), and changes the assessment only while it gives access', () => {
    fc.assert(
      fc.property(withGrantArb, ({ events, grant, now }) => {
        const without = foldEvents(events)!;
        const withGrant = foldEvents([...events, grant])!;
        const a = assessSubscriber(without, now);
        const b = assessSubscriber(withGrant, now);
        expect(b.risk.score).toBeLessThanOrEqual(a.risk.score);
        if (!promotionalAccessAt(withGrant, now)) {
          expect(b.subscriber.state).toBe(a.subscriber.state);
          expect(b.risk).toEqual(a.risk);
          expect(b.recommendations).toEqual(a.recommendations);
        } else if (grant.expiration_at_ms === null && ['churned', 'refunded', 'paused'].includes(without.state)) {
          expect(b.subscriber.state).toBe('active');
        } else if (['churned', 'refunded'].includes(without.state)) {
          expect(b.subscriber.state).toBe('pending_cancel');
          expect(b.subscriber.period_ends_at).toBe(grant.expiration_at_ms);
        } else {
          expect(b.subscriber.state).toBe(a.subscriber.state);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('is not the subscription\'s: a grant, its revoke and its expiry leave every subscription as it was', () => {
    fc.assert(
      fc.property(withGrantArb, fc.constantFrom('CANCELLATION', 'EXPIRATION') as fc.Arbitrary<'CANCELLATION' | 'EXPIRATION'>, ({ events, grant }, endType) => {
        const end = { ...grant, type: endType, id: 'revoke', expiration_at_ms: grant.event_timestamp_ms, cancel_reason: 'CUSTOMER_SUPPORT', expiration_reason: 'CUSTOMER_SUPPORT' } as HandledEvent;
        const without = foldEvents(events)!;
        const withAll = foldEvents([...events, grant, end])!;
        const keys = ['state', 'lifecycle_state', 'state_key', 'refund_key', 'product_id', 'period_ends_at', 'subscriptions', 'subscription_id', 'revenue', 'last_activity_at'] as const;
        for (const key of keys) expect(withAll[key], key).toEqual(without[key]);
        expect(promotionalAccessAt(withAll, end.event_timestamp_ms)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the assessment a change at its end that nextAssessmentChange finds', () => {
    fc.assert(
      fc.property(withGrantArb, ({ events, grant }) => {
        const s = foldEvents([...events, grant])!;
        const now = grant.event_timestamp_ms;
        const end = grant.expiration_at_ms;
        if (end === null || end === undefined || assessedAt(s, now) === s) return;
        const next = nextAssessmentChange(s, now);
        expect(next).not.toBeNull();
        expect(next!).toBeLessThanOrEqual(end);
        expect(assessedAt(s, end)).toBe(s);
      }),
      { numRuns: 300 },
    );
  });
});
