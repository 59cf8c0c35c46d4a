import { describe, expect, it } from 'vitest';
import { NOW, makeRisk, makeSubscriber } from '../../test/subscribers.js';
import { DAY } from '@tenure/testkit';
import { resolveConfig } from '../config/defaultConfig.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { recommend } from './recommend.js';

const actions = (subscriber: Subscriber, score: number, now = NOW) =>
  recommend(subscriber, makeRisk(score, 'medium'), now).map((r) => r.action);

/** A trialing subscriber on day `day` (1-based, `hours` into it) of a trial of `length` days. */
const trialDay = (day: number, length = 14, hours = 3) =>
  makeSubscriber({
    state: 'trialing',
    trial_started_at: NOW - (day - 1) * DAY - hours * 3_600_000,
    trial_ends_at: NOW - (day - 1) * DAY - hours * 3_600_000 + length * DAY,
  });

describe('recommend', () => {
  describe('billing_issue', () => {
    const billing = makeSubscriber({ state: 'billing_issue', billing_failures: 2 });

    it('recommends billing_failure_alert and payment_update, both immediate, when the score is above 70', () => {
      const recs = recommend(billing, makeRisk(71, 'high'), NOW);
      expect(recs).toEqual([
        { action: 'billing_failure_alert', urgency: 'immediate', priority: 1, reason: expect.any(String) },
        { action: 'payment_update', urgency: 'immediate', priority: 2, reason: expect.any(String) },
      ]);
    });

    it('recommends only payment_update when the score is 70 or below', () => {
      expect(actions(billing, 70)).toEqual(['payment_update']);
      expect(actions(billing, 10)).toEqual(['payment_update']);
    });

    it('cites the score and the number of billing failures', () => {
      const [alert, update] = recommend(billing, makeRisk(88, 'critical'), NOW);
      expect(alert?.reason).toContain('88');
      expect(alert?.reason).toContain('above 70');
      expect(alert?.reason).toContain('2 recorded billing failures');
      expect(update?.reason).toContain('2 recorded billing failures');
    });
  });

  describe('trialing', () => {
    it('recommends trial_nudge on day 12 of a 14-day trial', () => {
      const recs = recommend(trialDay(12), makeRisk(45, 'medium'), NOW);
      expect(recs).toEqual([{ action: 'trial_nudge', urgency: 'soon', priority: 1, reason: expect.any(String) }]);
      expect(recs[0]?.reason).toContain('Day 12 of a 14-day trial');
    });

    it('recommends trial_feature_highlight on day 11 of a 14-day trial', () => {
      const recs = recommend(trialDay(11), makeRisk(45, 'medium'), NOW);
      expect(recs).toEqual([{ action: 'trial_feature_highlight', urgency: 'soon', priority: 1, reason: expect.any(String) }]);
      expect(recs[0]?.reason).toContain('Day 11 of a 14-day trial');
    });

    it('counts day 1 as the first 24 hours of the trial', () => {
      expect(actions(trialDay(12, 14, 0), 40)).toEqual(['trial_nudge']);
      expect(actions(trialDay(11, 14, 23.99), 40)).toEqual(['trial_feature_highlight']);
    });

    it('keeps nudging on the last day of the trial and after it ends', () => {
      expect(actions(trialDay(14), 40)).toEqual(['trial_nudge']);
      expect(actions(trialDay(20), 40)).toEqual(['trial_nudge']);
    });

    it('recommends trial_feature_highlight on day 1', () => {
      expect(actions(trialDay(1), 40)).toEqual(['trial_feature_highlight']);
    });

    it('counts a time before the trial start as day 1', () => {
      const early = makeSubscriber({ state: 'trialing', trial_started_at: NOW + 3 * DAY, trial_ends_at: NOW + 17 * DAY });
      const [rec] = recommend(early, makeRisk(40, 'medium'), NOW);
      expect(rec?.action).toBe('trial_feature_highlight');
      expect(rec?.reason).toContain('Day 1 of a 14-day trial');
    });

    it('nudges 2 days before the end of a trial of any length (day 5 of 7, day 28 of 30)', () => {
      expect(actions(trialDay(4, 7), 40)).toEqual(['trial_feature_highlight']);
      expect(actions(trialDay(5, 7), 40)).toEqual(['trial_nudge']);
      expect(actions(trialDay(27, 30), 40)).toEqual(['trial_feature_highlight']);
      expect(actions(trialDay(28, 30), 40)).toEqual(['trial_nudge']);
    });

    it('recommends trial_feature_highlight when the trial dates are unknown', () => {
      expect(actions(makeSubscriber({ state: 'trialing' }), 40)).toEqual(['trial_feature_highlight']);
      expect(actions(makeSubscriber({ state: 'trialing', trial_started_at: NOW - 12 * DAY }), 40)).toEqual([
        'trial_feature_highlight',
      ]);
    });

    it('uses the configured number of nudge days', () => {
      const config = resolveConfig({ recommend: { trial_nudge_days_before_end: 4 } });
      expect(recommend(trialDay(10), makeRisk(40, 'medium'), NOW, config)[0]?.action).toBe('trial_nudge');
      expect(recommend(trialDay(9), makeRisk(40, 'medium'), NOW, config)[0]?.action).toBe('trial_feature_highlight');
    });
  });

  describe('churned', () => {
    const churned = makeSubscriber({ state: 'churned', renewals: 6 });

    it('recommends winback (immediate) when the score is above 80', () => {
      const recs = recommend(churned, makeRisk(81, 'critical'), NOW);
      expect(recs).toEqual([{ action: 'winback', urgency: 'immediate', priority: 1, reason: expect.any(String) }]);
      expect(recs[0]?.reason).toContain('81');
    });

    it('recommends loyalty_discount when the score is 80 or below', () => {
      const recs = recommend(churned, makeRisk(80, 'critical'), NOW);
      expect(recs).toEqual([{ action: 'loyalty_discount', urgency: 'soon', priority: 1, reason: expect.any(String) }]);
      expect(recs[0]?.reason).toContain('80');
      expect(recs[0]?.reason).toContain('6 renewals');
    });
  });

  describe('pending_cancel', () => {
    it('recommends loyalty_discount with 3 or more renewals', () => {
      const recs = recommend(makeSubscriber({ state: 'pending_cancel', renewals: 3 }), makeRisk(45, 'medium'), NOW);
      expect(recs).toEqual([{ action: 'loyalty_discount', urgency: 'soon', priority: 1, reason: expect.any(String) }]);
      expect(recs[0]?.reason).toContain('3 renewals');
    });

    it('recommends engagement_checkin with fewer than 3 renewals', () => {
      const recs = recommend(makeSubscriber({ state: 'pending_cancel', renewals: 2 }), makeRisk(50, 'medium'), NOW);
      expect(recs).toEqual([{ action: 'engagement_checkin', urgency: 'soon', priority: 1, reason: expect.any(String) }]);
      expect(recs[0]?.reason).toContain('2 renewals');
    });

    it('adds renewal_reminder when the period ends exactly 7 days from now', () => {
      const recs = recommend(
        makeSubscriber({ state: 'pending_cancel', renewals: 5, period_ends_at: NOW + 7 * DAY }),
        makeRisk(40, 'medium'),
        NOW,
      );
      expect(recs).toEqual([
        { action: 'loyalty_discount', urgency: 'soon', priority: 1, reason: expect.any(String) },
        { action: 'renewal_reminder', urgency: 'soon', priority: 2, reason: expect.any(String) },
      ]);
      expect(recs[1]?.reason).toContain('in 7 days');
    });

    it('adds renewal_reminder when the period ends within 7 days, citing the days left', () => {
      const recs = recommend(
        makeSubscriber({ state: 'pending_cancel', period_ends_at: NOW + 2 * DAY }),
        makeRisk(60, 'high'),
        NOW,
      );
      expect(recs.map((r) => r.action)).toEqual(['engagement_checkin', 'renewal_reminder']);
      expect(recs[1]?.reason).toContain('in 2 days');
    });

    it('adds renewal_reminder when the period ends right now', () => {
      expect(actions(makeSubscriber({ state: 'pending_cancel', period_ends_at: NOW }), 60)).toContain('renewal_reminder');
    });

    it('adds no renewal_reminder when the period ends more than 7 days from now', () => {
      expect(actions(makeSubscriber({ state: 'pending_cancel', period_ends_at: NOW + 7 * DAY + 1 }), 60)).toEqual([
        'engagement_checkin',
      ]);
    });

    it('adds no renewal_reminder when the period has already ended', () => {
      expect(actions(makeSubscriber({ state: 'pending_cancel', period_ends_at: NOW - 1 }), 60)).toEqual([
        'engagement_checkin',
      ]);
    });

    it('adds no renewal_reminder when the period end is unknown', () => {
      expect(actions(makeSubscriber({ state: 'pending_cancel', period_ends_at: null }), 60)).toEqual(['engagement_checkin']);
    });
  });

  describe('active', () => {
    it('recommends engagement_checkin after 14 days of inactivity', () => {
      const recs = recommend(makeSubscriber({ last_activity_at: NOW - 14 * DAY }), makeRisk(13, 'low'), NOW);
      expect(recs).toEqual([{ action: 'engagement_checkin', urgency: 'soon', priority: 1, reason: expect.any(String) }]);
      expect(recs[0]?.reason).toContain('14 days');
    });

    it('measures inactivity from the first event when no activity was recorded', () => {
      expect(actions(makeSubscriber({ last_activity_at: null, first_event_at: NOW - 20 * DAY }), 15)).toEqual([
        'engagement_checkin',
      ]);
    });

    it('recommends a single monitor after 13 days of inactivity', () => {
      expect(actions(makeSubscriber({ last_activity_at: NOW - 14 * DAY + 1 }), 13)).toEqual(['monitor']);
    });
  });

  it('recommends a single monitor, priority 1, when no rule applies', () => {
    const recs = recommend(makeSubscriber(), makeRisk(10, 'low'), NOW);
    expect(recs).toEqual([{ action: 'monitor', urgency: 'monitor', priority: 1, reason: expect.any(String) }]);
    expect(recs[0]?.reason).toContain('10');
    expect(recs[0]?.reason).toContain('active');
  });

  it('decides from the given risk score, not a recomputed one', () => {
    const churned = makeSubscriber({ state: 'churned' });
    expect(actions(churned, 20)).toEqual(['loyalty_discount']);
    expect(actions(churned, 95)).toEqual(['winback']);
  });

  it('uses the configured thresholds', () => {
    const config = resolveConfig({ recommend: { billing_alert_above: 90, loyalty_min_renewals: 1 } });
    const billing = recommend(makeSubscriber({ state: 'billing_issue' }), makeRisk(85, 'critical'), NOW, config);
    const pending = recommend(makeSubscriber({ state: 'pending_cancel', renewals: 1 }), makeRisk(55, 'medium'), NOW, config);
    expect(billing.map((r) => r.action)).toEqual(['payment_update']);
    expect(pending.map((r) => r.action)).toEqual(['loyalty_discount']);
  });
});
