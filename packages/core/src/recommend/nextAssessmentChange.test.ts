import { describe, expect, it } from 'vitest';
import { DAY_MS, type Subscriber } from '../index.js';
import { makeSubscriber, NOW } from '../../test/subscribers.js';
import { nextAssessmentChange } from './nextAssessmentChange.js';

const T0 = NOW;
const base: Subscriber = makeSubscriber({ first_event_at: T0, last_activity_at: T0, last_event_at: T0 });

describe('nextAssessmentChange', () => {
  it('an active subscriber gains its first inactivity point after 9 full days', () => {
    expect(nextAssessmentChange(base, T0)).toBe(T0 + 9 * DAY_MS);
  });

  it('then every 2 days, then daily from day 14 (the engagement check-in cites the day count)', () => {
    expect(nextAssessmentChange(base, T0 + 9 * DAY_MS)).toBe(T0 + 11 * DAY_MS);
    expect(nextAssessmentChange(base, T0 + 13 * DAY_MS)).toBe(T0 + 14 * DAY_MS);
    expect(nextAssessmentChange(base, T0 + 14 * DAY_MS)).toBe(T0 + 15 * DAY_MS);
  });

  it('a churned subscriber past the inactivity cap never changes without an event', () => {
    expect(nextAssessmentChange({ ...base, state: 'churned' }, T0 + 37 * DAY_MS)).toBeNull();
    expect(nextAssessmentChange({ ...base, state: 'churned' }, T0 + 36 * DAY_MS)).toBe(T0 + 37 * DAY_MS);
  });

  it('a trial changes on each new trial day (the reason cites the day)', () => {
    const trial = { ...base, state: 'trialing' as const, trial_started_at: T0, trial_ends_at: T0 + 14 * DAY_MS };
    expect(nextAssessmentChange(trial, T0 + 3 * DAY_MS + 5)).toBe(T0 + 4 * DAY_MS);
  });

  it('a trial reaches 80 % (+10) at the exact millisecond', () => {
    const trial = { ...base, state: 'trialing' as const, trial_started_at: T0, trial_ends_at: T0 + 10 * DAY_MS + 7 };
    const late = T0 + Math.ceil(0.8 * (10 * DAY_MS + 7));
    expect(nextAssessmentChange(trial, late - 3)).toBe(late);
  });

  it('a cancelled subscription gets its renewal reminder 7 days before the period ends, and loses it right after', () => {
    const end = T0 + 30 * DAY_MS;
    const cancelled = { ...base, state: 'pending_cancel' as const, period_ends_at: end, last_activity_at: end };
    expect(nextAssessmentChange(cancelled, T0)).toBe(end - 7 * DAY_MS);
    expect(nextAssessmentChange(cancelled, end - 1)).toBe(end);
    expect(nextAssessmentChange(cancelled, end)).toBe(end + 1);
  });
});

describe('nextAssessmentChange: grace period', () => {
  it('changes when a billing issue comes within grace_urgent_days (3) of its grace end', () => {
    const s = makeSubscriber({
      state: 'billing_issue',
      billing_failures: 1,
      first_event_at: T0,
      last_activity_at: T0,
      last_event_at: T0,
      grace_ends_at: T0 + 16.7 * DAY_MS,
      grace_key: { at: T0, rank: 4, id: 'evt_issue' },
    });
    // Inactivity next changes on day 15; the reminder turns into the immediate actions 3 days before the grace end.
    expect(nextAssessmentChange(s, T0 + 13.5 * DAY_MS)).toBe(T0 + 13.7 * DAY_MS);
  });
});
