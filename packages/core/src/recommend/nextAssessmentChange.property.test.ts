import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, DEFAULT_CONFIG, resolveConfig, type Subscriber, type TenureConfig } from '../index.js';
import { subscriberAtArb } from '../testing/index.js';
import { assessSubscriber } from './assessSubscriber.js';
import { nextAssessmentChange } from './nextAssessmentChange.js';
import { sameAssessment } from './sameAssessment.js';

/** Configurations the properties run under: the default and a few that move every threshold. */
const CONFIGS: TenureConfig[] = [
  DEFAULT_CONFIG,
  resolveConfig({ risk: { inactivity_grace_days: 3, inactivity_days_per_point: 1, inactivity_cap: 40 }, recommend: { engagement_inactive_days: 5 } }),
  resolveConfig({ risk: { inactivity_days_per_point: 3.5, trial_halfway_fraction: 0.3, trial_late_fraction: 0.65 }, recommend: { renewal_reminder_days: 10.5 } }),
  resolveConfig({ bands: { critical: 95, high: 50, medium: 20 }, recommend: { trial_nudge_days_before_end: 5, renewal_reminder_days: 0, grace_urgent_days: 0 } }),
  resolveConfig({ risk: { price_increase_points: 25 }, recommend: { grace_urgent_days: 10 } }),
];
const configArb = fc.constantFrom(...CONFIGS);

/**
 * Instants where some time-dependent input of the assessment may step, found independently of the
 * implementation: one millisecond either side of every whole-day offset from each reference time of
 * the subscriber, and of every 1 % of its trial, between `from` and `to`.
 */
function probes(s: Subscriber, from: number, to: number): number[] {
  const refs = [s.last_activity_at ?? s.first_event_at, s.trial_started_at, s.period_ends_at, s.grace_ends_at ?? null].filter(
    (r): r is number => r !== null,
  );
  const out: number[] = [];
  const push = (t: number) => {
    for (const x of [t - 1, t, t + 1]) if (x >= from && x < to) out.push(x);
  };
  for (const ref of refs) {
    const first = Math.ceil((from - ref) / DAY_MS) - 1;
    const last = Math.min(first + 400, Math.floor((to - ref) / DAY_MS) + 1);
    for (let k = first; k <= last; k++) push(ref + k * DAY_MS);
  }
  if (s.trial_started_at !== null && s.trial_ends_at !== null && s.trial_ends_at > s.trial_started_at) {
    const length = s.trial_ends_at - s.trial_started_at;
    for (let p = 0; p <= 100; p++) push(s.trial_started_at + Math.round((p / 100) * length));
  }
  return out;
}

describe('nextAssessmentChange', () => {
  it('returns an instant after now at which the assessment differs, and none before it differs', () => {
    fc.assert(
      fc.property(subscriberAtArb, configArb, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }), ({ subscriber, now }, config, samples) => {
        const next = nextAssessmentChange(subscriber, now, config);
        const base = assessSubscriber(subscriber, now, config);
        const end = next ?? now + 400 * DAY_MS;
        if (next !== null) {
          expect(next).toBeGreaterThan(now);
          expect(sameAssessment(base, assessSubscriber(subscriber, next, config))).toBe(false);
        }
        const instants = [...probes(subscriber, now, end), ...samples.map((f) => now + Math.floor(f * (end - now - 1)))];
        const differing = instants.find((t) => !sameAssessment(base, assessSubscriber(subscriber, t, config)));
        expect(differing === undefined ? undefined : `differs ${differing - now} ms after now`).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('is consistent along the timeline: from the change, the next change is later still', () => {
    fc.assert(
      fc.property(subscriberAtArb, configArb, ({ subscriber, now }, config) => {
        let t = now;
        for (let step = 0; step < 6; step++) {
          const next = nextAssessmentChange(subscriber, t, config);
          if (next === null) return;
          expect(next).toBeGreaterThan(t);
          t = next;
        }
      }),
    );
  });
});
