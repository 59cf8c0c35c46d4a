/**
 * A customer's several subscriptions: which one is primary (the one whose fields the customer's
 * top-level fields project) and which ones the record keeps (docs/rules.md §2, several subscriptions).
 */
import { compareIds } from '../atRisk/compareIds.js';
import { graceEndsAt } from '../risk/graceEndsAt.js';
import type { SubscriptionRecord, SubscriptionView } from './subscription.js';
import type { SubscriberState } from './subscriber.js';

/** Where a subscription stands for access: its state, with a billing issue in its grace period apart. */
export type AccessStanding = SubscriberState | 'billing_issue_in_grace';

/**
 * The access order of subscriptions, most access first: the primary subscription is the one with the
 * lowest rank (then the latest period end, then the smallest id). Active pays and renews; a trial has
 * access and may convert; pending_cancel has access until its period ends; a billing issue in its
 * grace period keeps access for now; paused comes back on its own; a billing issue without grace has
 * no access; refunded and churned are ended (refunded, the stronger churn signal, is kept above
 * churned so a refund stays visible). A total table: a new state fails to compile until ranked.
 */
export const ACCESS_RANK = {
  active: 0,
  trialing: 1,
  pending_cancel: 2,
  billing_issue_in_grace: 3,
  paused: 4,
  billing_issue: 5,
  refunded: 6,
  churned: 7,
} as const satisfies Record<AccessStanding, number>;

/** The most subscriptions a record tracks (the first in primary order are kept), so the record stays bounded. */
export const MAX_SUBSCRIPTIONS = 8;

/**
 * Given a subscription, returns its access standing: its state, or `billing_issue_in_grace` for a
 * billing issue whose latest BILLING_ISSUE carried a grace end (`graceEndsAt`; the fold has no clock,
 * so whether that end has passed does not matter here). Pure.
 *
 * @example
 * accessStandingOf(applyEvent(undefined, issueWithGrace)); // 'billing_issue_in_grace'
 */
export function accessStandingOf(sub: SubscriptionView): AccessStanding {
  return sub.state === 'billing_issue' && graceEndsAt(sub) !== null ? 'billing_issue_in_grace' : sub.state;
}

/**
 * Given two subscriptions, returns a negative number when `a` comes first in primary order (lower
 * access rank, then later period end, a null end last, then smaller id in code-point order), a
 * positive one when `b` does, 0 for the same id. Pure: a total order over distinct ids.
 *
 * @example
 * [churned, active].sort(comparePrimary)[0] === active; // true
 */
export function comparePrimary(a: SubscriptionRecord, b: SubscriptionRecord): number {
  const byRank = ACCESS_RANK[accessStandingOf(a)] - ACCESS_RANK[accessStandingOf(b)];
  if (byRank !== 0) return byRank;
  const ea = a.period_ends_at;
  const eb = b.period_ends_at;
  if (ea !== eb) {
    if (ea === null) return 1;
    if (eb === null) return -1;
    return eb - ea;
  }
  return compareIds(a.id, b.id);
}

/** The tracked subscriptions (sorted by id) and the primary one among them. */
export interface TrackedSubscriptions {
  subscriptions: SubscriptionRecord[];
  primary: SubscriptionRecord;
}

/**
 * Given the tracked subscriptions (sorted by id, possibly empty) and one subscription after an event,
 * returns the list with it replaced or inserted (still sorted by id), bounded to `MAX_SUBSCRIPTIONS`
 * by dropping the last in primary order, and the primary subscription. Pure: the input is not changed.
 *
 * @example
 * trackSubscription([monthly], weekly).primary; // the one with the most access
 */
export function trackSubscription(list: readonly SubscriptionRecord[], next: SubscriptionRecord): TrackedSubscriptions {
  const subscriptions: SubscriptionRecord[] = [];
  let placed = false;
  for (const sub of list) {
    const order = compareIds(sub.id, next.id);
    if (order === 0) continue;
    if (order > 0 && !placed) {
      subscriptions.push(next);
      placed = true;
    }
    subscriptions.push(sub);
  }
  if (!placed) subscriptions.push(next);
  let primary = subscriptions[0]!;
  let last = primary;
  for (const sub of subscriptions) {
    if (comparePrimary(sub, primary) < 0) primary = sub;
    if (comparePrimary(sub, last) > 0) last = sub;
  }
  if (subscriptions.length > MAX_SUBSCRIPTIONS) subscriptions.splice(subscriptions.indexOf(last), 1);
  return { subscriptions, primary };
}
