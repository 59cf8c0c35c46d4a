/**
 * What a granted entitlement means for an assessment (docs/rules.md §2, promotional grants): a
 * customer without access given access by a grant (RevenueCat's promotional grant, the win-back
 * offer) is assessed by what it has now. Churned or refunded with a grant that ends: access until
 * then and no renewal unless they buy, so a pending cancellation whose period ends with the grant.
 * Churned, refunded or paused with a grant without end: active. A paused subscription with a grant
 * that ends stays paused (it comes back on its own; the grant covers the gap), and a billing issue
 * stays a billing issue (its payment is still to be fixed). From the grant's end, what it was. The
 * record keeps what its events said; only the assessment at a given time reads the grant, so the
 * fold stays free of clocks.
 */
import type { Subscriber } from './subscriber.js';

/**
 * Given a subscriber and a time, returns whether a granted entitlement gives it access then: its
 * latest promotional event was a grant whose end (if any) is after `now`, or a revoke or expiry
 * whose end is. Pure.
 *
 * @example
 * promotionalAccessAt({ ...churned, promotional_key: key, promotional_access_until: T + 7 * DAY }, T); // true
 */
export function promotionalAccessAt(subscriber: Subscriber, now: number): boolean {
  if ((subscriber.promotional_key ?? null) === null) return false;
  const until = subscriber.promotional_access_until ?? null;
  return until === null || now < until;
}

/**
 * Given a subscriber and a time, returns the subscriber as assessed then: itself, unless a grant
 * gives it access it would not have (see the module header): then a copy whose state is
 * `pending_cancel` with its period ending at the grant's end and no cancel reason, or `active` for a
 * grant without end. Returns the very record when nothing applies, so calling it again is free. Pure.
 *
 * @example
 * assessedAt(winback, now).state; // 'pending_cancel' until the grant ends, then 'churned'
 */
export function assessedAt(subscriber: Subscriber, now: number): Subscriber {
  const state = subscriber.state;
  if ((state !== 'churned' && state !== 'refunded' && state !== 'paused') || !promotionalAccessAt(subscriber, now)) return subscriber;
  const until = subscriber.promotional_access_until ?? null;
  if (until === null) return { ...subscriber, state: 'active', cancel_reason: null };
  if (state === 'paused') return subscriber;
  return { ...subscriber, state: 'pending_cancel', period_ends_at: until, cancel_reason: null };
}

/**
 * Given a subscriber and a time, returns when its promotional access changes its assessment next:
 * the grant's end, when the grant changes what it is assessed as at `now` (`assessedAt`); else null. Pure.
 *
 * @example
 * promotionalAccessEnd(winback, now); // winback.promotional_access_until
 */
export function promotionalAccessEnd(subscriber: Subscriber, now: number): number | null {
  const until = subscriber.promotional_access_until ?? null;
  return assessedAt(subscriber, now) !== subscriber && until !== null ? until : null;
}
