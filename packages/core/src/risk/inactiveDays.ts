/** How long a subscriber has been inactive, as the scorer and the recommender both count it. */
import { DAY_MS, type TenureConfig } from '../config/defaultConfig.js';
import type { Subscriber } from '../subscriber/subscriber.js';

/**
 * Given a subscriber and the current time (epoch ms), returns the number of full days since the
 * subscriber's last activity, or since its first event when no activity was ever recorded; 0 when
 * `now` is before that reference time. Pure.
 *
 * @example
 * inactiveDays({ ...subscriber, last_activity_at: now - 14 * DAY_MS }, now); // 14
 */
export function inactiveDays(subscriber: Subscriber, now: number): number {
  const reference = subscriber.last_activity_at ?? subscriber.first_event_at;
  const elapsed = now - reference;
  return elapsed > 0 ? Math.floor(elapsed / DAY_MS) : 0;
}

/**
 * Given a number of inactive days and the configuration, returns the inactivity points of the
 * score: after `inactivity_grace_days`, +1 per `inactivity_days_per_point` full days, clamped to
 * 0..`inactivity_cap`. Pure.
 *
 * @example
 * inactivityPoints(14, DEFAULT_CONFIG); // 3
 */
export function inactivityPoints(days: number, config: TenureConfig): number {
  const r = config.risk;
  const overdue = Math.floor((days - r.inactivity_grace_days) / r.inactivity_days_per_point);
  return overdue < 0 ? 0 : overdue > r.inactivity_cap ? r.inactivity_cap : overdue;
}
