import { describe, expect, it } from 'vitest';
import { NOW, makeSubscriber } from '../../test/subscribers.js';
import { DAY } from '@tenure/testkit';
import { resolveConfig } from '../config/defaultConfig.js';
import { scoreSubscriber } from './scoreSubscriber.js';

/** An active subscriber (base 10) last active `days` full days (plus `extraMs`) before NOW. */
const inactiveFor = (days: number, extraMs = 0) =>
  scoreSubscriber(makeSubscriber({ last_activity_at: NOW - days * DAY - extraMs }), NOW).breakdown.inactivity;

/** A trialing subscriber whose 10-day trial is `fraction` through at NOW. */
const trialAt = (fraction: number) =>
  scoreSubscriber(
    makeSubscriber({ state: 'trialing', trial_started_at: NOW - fraction * 10 * DAY, trial_ends_at: NOW + (1 - fraction) * 10 * DAY }),
    NOW,
  ).breakdown.trial_conversion;

describe('scoreSubscriber', () => {
  describe('state base', () => {
    it.each([
      ['billing_issue', 80],
      ['churned', 100],
      ['trialing', 40],
    ] as const)('gives %s a base of %i (seed)', (state, base) => {
      const risk = scoreSubscriber(makeSubscriber({ state }), NOW);
      expect(risk.breakdown.state).toBe(base);
      expect(risk.score).toBe(base);
    });

    it.each([
      ['active', 10],
      ['pending_cancel', 60],
    ] as const)('gives %s a base of %i (tenure decision)', (state, base) => {
      const risk = scoreSubscriber(makeSubscriber({ state }), NOW);
      expect(risk.breakdown.state).toBe(base);
      expect(risk.score).toBe(base);
    });

    it('scores a pending_cancel subscriber lower than a churned one', () => {
      const pending = scoreSubscriber(makeSubscriber({ state: 'pending_cancel' }), NOW);
      const churned = scoreSubscriber(makeSubscriber({ state: 'churned' }), NOW);
      expect(pending.score).toBeLessThan(churned.score);
    });
  });

  describe('billing failures', () => {
    it.each([
      [0, 0],
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 30],
      [12, 30],
    ])('adds 10 per billing failure, capped at 30 (%i failures → +%i)', (billing_failures, points) => {
      const risk = scoreSubscriber(makeSubscriber({ billing_failures }), NOW);
      expect(risk.breakdown.billing_failures).toBe(points);
      expect(risk.score).toBe(10 + points);
    });
  });

  describe('renewals', () => {
    it.each([
      [0, 0],
      [1, -5],
      [3, -15],
      [4, -20],
      [5, -20],
      [40, -20],
    ])('subtracts 5 per renewal, capped at 20 (%i renewals → %i)', (renewals, points) => {
      const risk = scoreSubscriber(makeSubscriber({ state: 'pending_cancel', renewals }), NOW);
      expect(risk.breakdown.renewals).toBe(points);
      expect(risk.score).toBe(60 + points);
    });
  });

  describe('inactivity', () => {
    it('adds nothing within the 7-day grace period (day 7 vs 8 both +0)', () => {
      expect(inactiveFor(0)).toBe(0);
      expect(inactiveFor(7)).toBe(0);
      expect(inactiveFor(8)).toBe(0);
    });

    it('adds the first point after 9 full days of inactivity', () => {
      expect(inactiveFor(9, -1)).toBe(0);
      expect(inactiveFor(9)).toBe(1);
    });

    it('counts only full days of inactivity', () => {
      expect(inactiveFor(8, DAY - 1)).toBe(0);
    });

    it('adds 1 point per 2 full days after 7 (12 → +2, 13 and 14 → +3)', () => {
      expect(inactiveFor(12)).toBe(2);
      expect(inactiveFor(13)).toBe(3);
      expect(inactiveFor(14)).toBe(3);
    });

    it('caps inactivity at +15, reached at 37 days (36 → +14)', () => {
      expect(inactiveFor(36)).toBe(14);
      expect(inactiveFor(37)).toBe(15);
      expect(inactiveFor(38)).toBe(15);
      expect(inactiveFor(400)).toBe(15);
    });

    it('measures inactivity from the first event when no activity was recorded', () => {
      const risk = scoreSubscriber(makeSubscriber({ last_activity_at: null, first_event_at: NOW - 14 * DAY }), NOW);
      expect(risk.breakdown.inactivity).toBe(3);
    });

    it('adds nothing when now is before the last activity', () => {
      const risk = scoreSubscriber(makeSubscriber({ last_activity_at: NOW + 30 * DAY }), NOW);
      expect(risk.breakdown.inactivity).toBe(0);
    });
  });

  describe('trial conversion', () => {
    it('adds nothing before half of a running trial has passed', () => {
      expect(trialAt(0)).toBe(0);
      expect(trialAt(0.49)).toBe(0);
    });

    it('adds 5 once half of a running trial has passed', () => {
      expect(trialAt(0.5)).toBe(5);
      expect(trialAt(0.79)).toBe(5);
    });

    it('adds 10 once 80 % of a running trial has passed', () => {
      expect(trialAt(0.8)).toBe(10);
      expect(trialAt(1)).toBe(10);
      expect(trialAt(1.5)).toBe(10);
    });

    it('adds nothing for trial progress when the subscriber is not trialing', () => {
      const risk = scoreSubscriber(
        makeSubscriber({ state: 'active', trial_started_at: NOW - 9 * DAY, trial_ends_at: NOW + DAY }),
        NOW,
      );
      expect(risk.breakdown.trial_conversion).toBe(0);
    });

    it('adds nothing for trial progress when the trial dates are unknown or inverted', () => {
      const unknown = scoreSubscriber(makeSubscriber({ state: 'trialing', trial_started_at: NOW - 9 * DAY }), NOW);
      const inverted = scoreSubscriber(
        makeSubscriber({ state: 'trialing', trial_started_at: NOW - DAY, trial_ends_at: NOW - 2 * DAY }),
        NOW,
      );
      expect(unknown.breakdown.trial_conversion).toBe(0);
      expect(inverted.breakdown.trial_conversion).toBe(0);
    });

    it('adds 5 when a trial took more than 7 days to convert', () => {
      const converted = (ms: number) =>
        scoreSubscriber(makeSubscriber({ trial_started_at: NOW - 30 * DAY, trial_converted_at: NOW - 30 * DAY + ms }), NOW)
          .breakdown.trial_conversion;
      expect(converted(3 * DAY)).toBe(0);
      expect(converted(7 * DAY)).toBe(0);
      expect(converted(7 * DAY + 1)).toBe(5);
    });
  });

  describe('clamping', () => {
    it('clamps the score at 100 and keeps the unclamped breakdown', () => {
      const risk = scoreSubscriber(makeSubscriber({ state: 'churned', billing_failures: 3 }), NOW);
      expect(risk.score).toBe(100);
      expect(risk.breakdown).toEqual({ state: 100, billing_failures: 30, renewals: 0, inactivity: 0, trial_conversion: 0, cancel_reason: 0 });
    });

    it('clamps the score at 0', () => {
      const risk = scoreSubscriber(makeSubscriber({ state: 'active', renewals: 4 }), NOW);
      expect(risk.breakdown.renewals).toBe(-20);
      expect(risk.score).toBe(0);
    });
  });

  it('sums every signal: billing_issue, 2 failures, 1 renewal, 20 days inactive → 80 + 20 - 5 + 6 = 100', () => {
    const risk = scoreSubscriber(
      makeSubscriber({ state: 'billing_issue', billing_failures: 2, renewals: 1, last_activity_at: NOW - 20 * DAY }),
      NOW,
    );
    expect(risk.breakdown).toEqual({ state: 80, billing_failures: 20, renewals: -5, inactivity: 6, trial_conversion: 0, cancel_reason: 0 });
    expect(risk.score).toBe(100);
  });

  it('puts a score of 82 in the critical band', () => {
    const risk = scoreSubscriber(makeSubscriber({ state: 'billing_issue', last_activity_at: NOW - 11 * DAY }), NOW);
    expect(risk.score).toBe(82);
    expect(risk.band).toBe('critical');
  });

  it('sums a trialing subscriber late in its trial: 40 + 10 + inactivity 3 = 53, medium', () => {
    const risk = scoreSubscriber(
      makeSubscriber({
        state: 'trialing',
        trial_started_at: NOW - 12 * DAY,
        trial_ends_at: NOW + 2 * DAY,
        last_activity_at: NOW - 13 * DAY,
      }),
      NOW,
    );
    expect(risk.score).toBe(53);
    expect(risk.band).toBe('medium');
  });

  it('uses the given configuration instead of the defaults', () => {
    const config = resolveConfig({ risk: { state_base: { active: 0 }, billing_failure_cap: 50 }, bands: { medium: 30 } });
    const risk = scoreSubscriber(makeSubscriber({ billing_failures: 4 }), NOW, config);
    expect(risk.breakdown.state).toBe(0);
    expect(risk.breakdown.billing_failures).toBe(40);
    expect(risk.band).toBe('medium');
  });
});
