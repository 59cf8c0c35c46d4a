import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subscriberAtArb } from '../testing/index.js';
import { DAY_MS } from '../config/defaultConfig.js';
import { scoreSubscriber } from './scoreSubscriber.js';

const clamp = (n: number) => Math.min(100, Math.max(0, n));

describe('scoreSubscriber properties', () => {
  it('always gives an integer score in 0..100', () => {
    fc.assert(
      fc.property(subscriberAtArb, ({ subscriber, now }) => {
        const { score } = scoreSubscriber(subscriber, now);
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
      }),
    );
  });

  it('gives integer breakdown signals, never -0', () => {
    fc.assert(
      fc.property(subscriberAtArb, ({ subscriber, now }) => {
        for (const points of Object.values(scoreSubscriber(subscriber, now).breakdown)) {
          expect(Number.isInteger(points)).toBe(true);
          expect(Object.is(points, -0)).toBe(false);
        }
      }),
    );
  });

  it('gives a score equal to the clamped sum of its breakdown', () => {
    fc.assert(
      fc.property(subscriberAtArb, ({ subscriber, now }) => {
        const { score, breakdown } = scoreSubscriber(subscriber, now);
        const sum =
          breakdown.state +
          breakdown.billing_failures +
          breakdown.renewals +
          breakdown.inactivity +
          breakdown.trial_conversion +
          breakdown.cancel_reason;
        expect(score).toBe(clamp(sum));
      }),
    );
  });

  it('keeps the billing failure contribution within 0..30', () => {
    fc.assert(
      fc.property(subscriberAtArb, ({ subscriber, now }) => {
        const points = scoreSubscriber(subscriber, now).breakdown.billing_failures;
        expect(points).toBeGreaterThanOrEqual(0);
        expect(points).toBeLessThanOrEqual(30);
      }),
    );
  });

  it('keeps the renewal contribution within -20..0', () => {
    fc.assert(
      fc.property(subscriberAtArb, ({ subscriber, now }) => {
        const points = scoreSubscriber(subscriber, now).breakdown.renewals;
        expect(points).toBeGreaterThanOrEqual(-20);
        expect(points).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('keeps the inactivity contribution within 0..15', () => {
    fc.assert(
      fc.property(subscriberAtArb, ({ subscriber, now }) => {
        const points = scoreSubscriber(subscriber, now).breakdown.inactivity;
        expect(points).toBeGreaterThanOrEqual(0);
        expect(points).toBeLessThanOrEqual(15);
      }),
    );
  });

  it('never lowers the score when billing failures are added', () => {
    fc.assert(
      fc.property(subscriberAtArb, fc.integer({ min: 1, max: 10 }), ({ subscriber, now }, more) => {
        const before = scoreSubscriber(subscriber, now).score;
        const after = scoreSubscriber({ ...subscriber, billing_failures: subscriber.billing_failures + more }, now).score;
        expect(after).toBeGreaterThanOrEqual(before);
      }),
    );
  });

  it('never raises the score when renewals are added', () => {
    fc.assert(
      fc.property(subscriberAtArb, fc.integer({ min: 1, max: 10 }), ({ subscriber, now }, more) => {
        const before = scoreSubscriber(subscriber, now).score;
        const after = scoreSubscriber({ ...subscriber, renewals: subscriber.renewals + more }, now).score;
        expect(after).toBeLessThanOrEqual(before);
      }),
    );
  });

  it('never lowers the inactivity contribution as time passes', () => {
    fc.assert(
      fc.property(subscriberAtArb, fc.integer({ min: 0, max: 60 * DAY_MS }), ({ subscriber, now }, later) => {
        const before = scoreSubscriber(subscriber, now).breakdown.inactivity;
        const after = scoreSubscriber(subscriber, now + later).breakdown.inactivity;
        expect(after).toBeGreaterThanOrEqual(before);
      }),
    );
  });

  it('gives the band that matches the score (critical ≥ 80, high ≥ 60, medium ≥ 40, else low)', () => {
    fc.assert(
      fc.property(subscriberAtArb, ({ subscriber, now }) => {
        const { score, band } = scoreSubscriber(subscriber, now);
        const expected = score >= 80 ? 'critical' : score >= 60 ? 'high' : score >= 40 ? 'medium' : 'low';
        expect(band).toBe(expected);
      }),
    );
  });

  it('does not mutate the subscriber', () => {
    fc.assert(
      fc.property(subscriberAtArb, ({ subscriber, now }) => {
        const copy = { ...subscriber };
        scoreSubscriber(subscriber, now);
        expect(subscriber).toEqual(copy);
      }),
    );
  });
});
