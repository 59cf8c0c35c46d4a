import { describe, expect, it } from 'vitest';
import { NOW, makeSubscriber } from '../../test/subscribers.js';
import { DAY } from '@tenure/testkit';
import { assessSubscriber } from './assessSubscriber.js';

describe('assessSubscriber', () => {
  it('returns the subscriber with its risk and recommendations', () => {
    const subscriber = makeSubscriber({ state: 'billing_issue', billing_failures: 1, last_activity_at: NOW - 3 * DAY });
    const assessment = assessSubscriber(subscriber, NOW);
    expect(assessment.subscriber).toBe(subscriber);
    expect(assessment.risk.score).toBe(90);
    expect(assessment.risk.band).toBe('critical');
    expect(assessment.recommendations.map((r) => [r.action, r.priority])).toEqual([
      ['billing_failure_alert', 1],
      ['payment_update', 2],
    ]);
  });

  it('recommends trial_nudge for a trialing subscriber on day 12 of a 14-day trial', () => {
    const subscriber = makeSubscriber({
      state: 'trialing',
      trial_started_at: NOW - 11 * DAY - 1,
      trial_ends_at: NOW + 3 * DAY - 1,
    });
    const assessment = assessSubscriber(subscriber, NOW);
    // 40 base + 5: 11 of 14 days (79 %) have passed, halfway but not yet 80 %
    expect(assessment.risk.score).toBe(45);
    expect(assessment.recommendations.map((r) => r.action)).toEqual(['trial_nudge']);
  });
});
