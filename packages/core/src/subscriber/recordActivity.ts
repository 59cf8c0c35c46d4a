/** App-reported activity, which the billing service does not announce by webhook. */
import type { Subscriber } from './subscriber.js';

/**
 * Given a subscriber and the time (epoch ms) at which the app saw the user active (opened the app,
 * spent credits), returns the subscriber with `last_activity_at` moved forward to it. An older time
 * changes nothing, so reports may arrive in any order. Pure.
 *
 * @example
 * recordActivity(subscriber, now).last_activity_at; // now
 */
export function recordActivity(subscriber: Subscriber, at: number): Subscriber {
  if (subscriber.last_activity_at !== null && subscriber.last_activity_at >= at) return subscriber;
  return { ...subscriber, last_activity_at: at };
}
