/**
 * When a subscriber's assessment next changes without a new event. Scores and recommendations move
 * with time alone (inactivity, trial progress and trial day, a cancelled period nearing its end);
 * stores keep the answer as `rescore_at` so that only rows that came due are re-assessed.
 *
 * Method: every time-dependent input of `assessSubscriber` is a step function of time. For each, the
 * next step that can matter is computed in closed form; the earliest of them is a candidate. The
 * assessment at the candidate is compared with the one at `now`; if it happens to be the same, the
 * search continues from the candidate. Candidates are never later than a real change, so the first
 * candidate that differs is the earliest instant that does.
 */
import { DAY_MS, DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import type { Assessment } from '../dispatch/delivery.js';
import { graceEndsAt } from '../risk/graceEndsAt.js';
import { inactiveDays, inactivityPoints } from '../risk/inactiveDays.js';
import { assessedAt, promotionalAccessEnd } from '../subscriber/promotionalAccess.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { assessSubscriber } from './assessSubscriber.js';
import { sameAssessment } from './sameAssessment.js';

/** Candidates that turn out to change nothing (only odd configurations produce them) are skipped at most this often. */
const MAX_STEPS = 64;

/** The earliest instant after `t` at which `inactiveDays` reaches `days` (days >= 1). */
const whenInactiveDays = (s: Subscriber, days: number): number => (s.last_activity_at ?? s.first_event_at) + days * DAY_MS;

/** The next inactivity day count that changes the score or, for an active subscriber, its engagement recommendation. */
function nextInactivityStep(s: Subscriber, t: number, config: TenureConfig): number | null {
  const days = inactiveDays(s, t);
  let next: number | null = null;
  const r = config.risk;
  const points = inactivityPoints(days, config);
  if (r.inactivity_days_per_point > 0 && Number.isFinite(r.inactivity_days_per_point) && points < r.inactivity_cap) {
    // The smallest day count whose points differ; start a little early (float rounding) and walk.
    const target = Math.max(points, 0) + 1;
    let d = Math.max(days + 1, Math.ceil(r.inactivity_grace_days + target * r.inactivity_days_per_point) - 2);
    for (let i = 0; i < 4 && inactivityPoints(d, config) === points; i++) d++;
    next = d;
  }
  if (s.state === 'active') {
    // At or past the threshold the reason cites the day count, so every day is a change.
    const threshold = config.recommend.engagement_inactive_days;
    const d = days >= threshold ? days + 1 : Math.ceil(threshold);
    if (Number.isFinite(d) && (next === null || d < next)) next = d;
  }
  return next === null ? null : whenInactiveDays(s, Math.max(next, 1));
}

/** The first integer instant after `t` at which `(x - start) / (end - start) >= fraction`, or null if none changes. */
function whenTrialFraction(start: number, end: number, fraction: number, t: number): number | null {
  if (!Number.isFinite(fraction)) return null;
  const reached = (x: number) => (x - start) / (end - start) >= fraction;
  if (reached(t)) return null;
  let x = Math.max(t + 1, start + Math.ceil(fraction * (end - start)) - 2);
  for (let i = 0; i < 8 && !reached(x); i++) x++;
  return x;
}

/** The next trial step: a new trial day (cited by the recommendation) or a trial fraction threshold. */
function nextTrialStep(s: Subscriber, t: number, config: TenureConfig): number | null {
  const start = s.trial_started_at;
  const end = s.trial_ends_at;
  if (s.state !== 'trialing' || start === null || end === null || end <= start) return null;
  const dayIndex = t - start > 0 ? Math.floor((t - start) / DAY_MS) + 1 : 1;
  let next = start + dayIndex * DAY_MS;
  for (const fraction of [config.risk.trial_halfway_fraction, config.risk.trial_late_fraction]) {
    const at = whenTrialFraction(start, end, fraction, t);
    if (at !== null && at < next) next = at;
  }
  return next;
}

/** The next step of the renewal reminder of a cancelled subscription: it appears, its day count drops, it disappears. */
function nextReminderStep(s: Subscriber, t: number, config: TenureConfig): number | null {
  const end = s.period_ends_at;
  if (s.state !== 'pending_cancel' || end === null || t > end) return null;
  const window = config.recommend.renewal_reminder_days * DAY_MS;
  if (!(window >= 0)) return null;
  const appears = Math.ceil(end - window);
  if (t < appears) return appears;
  // Days left = ceil((end - x) / DAY) drops to j at x = end - j * DAY; after `end` the reminder is gone.
  const j = Math.ceil((end - t) / DAY_MS) - 1;
  return j >= 0 ? end - j * DAY_MS : end + 1;
}

/** When a billing issue's grace period comes within `grace_urgent_days` of its end (the reminder turns into the immediate actions). */
function nextGraceStep(s: Subscriber, t: number, config: TenureConfig): number | null {
  const end = graceEndsAt(s);
  if (end === null) return null;
  const urgent = end - config.recommend.grace_urgent_days * DAY_MS;
  if (!Number.isFinite(urgent) || t >= urgent) return null;
  // The reminder holds while now < urgent: the first integer instant at or after it.
  return Math.ceil(urgent);
}

function nextCandidate(record: Subscriber, t: number, config: TenureConfig): number | null {
  // The steps of the subscriber as assessed at t, and the end of a promotional grant that changes what it is.
  const s = assessedAt(record, t);
  let next: number | null = null;
  for (const at of [nextInactivityStep(s, t, config), nextTrialStep(s, t, config), nextReminderStep(s, t, config), nextGraceStep(s, t, config), promotionalAccessEnd(record, t)]) {
    if (at !== null && at > t && (next === null || at < next)) next = at;
  }
  return next;
}

/**
 * Given a subscriber, the current time (epoch ms, an integer) and a configuration, returns the
 * earliest instant after `now` at which `assessSubscriber(subscriber, t, config)` differs from the
 * assessment at `now` (score, band, breakdown or recommendations, reasons included), or null when
 * no instant does without a new event or activity. The assessment is the same at every instant of
 * `[now, next)`. A caller that has just assessed the subscriber at `now` with `config` passes that
 * assessment as `base` (it is not computed again). Pure.
 *
 * @example
 * // An active subscriber last seen on day 0 gains its first inactivity point on day 9.
 * nextAssessmentChange(subscriber, now); // subscriber.last_activity_at + 9 * DAY_MS
 */
export function nextAssessmentChange(
  subscriber: Subscriber,
  now: number,
  config: TenureConfig = DEFAULT_CONFIG,
  base: Assessment = assessSubscriber(subscriber, now, config),
): number | null {
  let t = now;
  for (let step = 0; step < MAX_STEPS; step++) {
    const candidate = nextCandidate(subscriber, t, config);
    if (candidate === null) return null;
    if (!sameAssessment(base, assessSubscriber(subscriber, candidate, config))) return candidate;
    t = candidate;
  }
  return t + 1;
}
