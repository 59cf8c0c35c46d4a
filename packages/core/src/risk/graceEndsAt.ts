/** The grace period of a billing issue, as the recommender and `nextAssessmentChange` both read it. */
import { isLaterKey } from '../subscriber/eventKey.js';
import type { Subscriber } from '../subscriber/subscriber.js';

/**
 * Given a subscriber (or one of its subscriptions), returns the end of its current grace period (epoch ms), or null: the
 * `grace_period_expiration_at_ms` of its latest BILLING_ISSUE, while it is in billing_issue and
 * that issue is later than the latest other lifecycle event (a grace period of an earlier failure,
 * before a recovery, no longer applies). Pure.
 *
 * @example
 * graceEndsAt(foldEvents([issueWithGraceUntil(t)])!); // t
 */
export function graceEndsAt(subscriber: Pick<Subscriber, 'state' | 'grace_ends_at' | 'grace_key' | 'base_state_key'>): number | null {
  const end = subscriber.grace_ends_at ?? null;
  const key = subscriber.grace_key ?? null;
  if (subscriber.state !== 'billing_issue' || end === null || key === null) return null;
  const base = subscriber.base_state_key ?? null;
  return base === null || isLaterKey(key, base) ? end : null;
}
