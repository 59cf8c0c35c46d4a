/**
 * Who counts in a backtest and what counts as churn. A subscriber is live at an instant when it has
 * a subscription that has not ended: not churned, not refunded, and not lapsed (its period, grace
 * or pause ran out with no event since, as when an export or an event log misses the expiration).
 */
import type { Subscriber } from '../subscriber/subscriber.js';

/** The default time past a period end (or grace end, or resume time) after which a subscriber with no event since has lapsed: 3 days. */
export const DEFAULT_LAPSE_MS = 3 * 86_400_000;

/**
 * Given a subscriber, an instant and the lapse allowance, returns whether its subscription ran out
 * before that instant without an event saying so: an active, trialing or pending-cancel period that
 * ended more than `lapseMs` ago, a grace period that did, or a pause whose resume time did. Pure.
 *
 * @example
 * hasLapsed({ ...subscriber, state: 'active', period_ends_at: T0 }, T0 + 4 * DAY, DEFAULT_LAPSE_MS); // true
 */
export function hasLapsed(subscriber: Subscriber, at: number, lapseMs: number): boolean {
  switch (subscriber.state) {
    case 'active':
    case 'trialing':
    case 'pending_cancel':
      return subscriber.period_ends_at !== null && subscriber.period_ends_at + lapseMs < at;
    case 'billing_issue':
      return subscriber.grace_ends_at != null && subscriber.grace_ends_at + lapseMs < at;
    case 'paused':
      return subscriber.auto_resume_at != null && subscriber.auto_resume_at + lapseMs < at;
    case 'churned':
    case 'refunded':
      return false;
  }
}

/**
 * Given a subscriber's state, returns whether it is an end: churned (expired, not renewed) or
 * refunded. Pure.
 *
 * @example
 * isEndedState('refunded'); // true
 */
export function isEndedState(state: Subscriber['state']): boolean {
  return state === 'churned' || state === 'refunded';
}

/**
 * Given a subscriber, an instant and the lapse allowance, returns whether it is live there: it has
 * seen a lifecycle event (a top-up-only customer has no subscription), it has not ended, and it has
 * not lapsed. Pure.
 *
 * @example
 * isLiveAt(subscriber, cutoff, DEFAULT_LAPSE_MS);
 */
export function isLiveAt(subscriber: Subscriber, at: number, lapseMs: number): boolean {
  return subscriber.state_key !== null && !isEndedState(subscriber.state) && !hasLapsed(subscriber, at, lapseMs);
}
