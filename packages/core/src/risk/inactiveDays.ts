/** How long a subscriber has been inactive, as the scorer and the recommender both count it. */
import { DAY_MS } from '../config/defaultConfig.js';
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
