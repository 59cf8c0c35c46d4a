/** Ordering of events within one subscriber's history. */
import type { HandledEventType } from '../events/webhookSchema.js';
import type { EventKey } from './subscriber.js';

/**
 * Lifecycle precedence for events with the same `event_timestamp_ms`: the later stage wins.
 * BILLING_ISSUE, CANCELLATION and EXPIRATION are sent at the same moment when a charge fails with no
 * grace period; EXPIRATION must win. An uncancellation or a recovery renewal follows the cancellation
 * or billing issue it undoes.
 */
export const EVENT_PRECEDENCE = {
  NON_RENEWING_PURCHASE: 0,
  INITIAL_PURCHASE: 1,
  PRODUCT_CHANGE: 2,
  CANCELLATION: 3,
  BILLING_ISSUE: 4,
  UNCANCELLATION: 5,
  RENEWAL: 6,
  EXPIRATION: 7,
  // Added with the types they rank; the numbers above are stored in records' keys and never change.
  // A reversal follows the refund (a CANCELLATION and an EXPIRATION) it undoes; an extension set at
  // the same moment as a renewal or expiration gives the later period end.
  REFUND_REVERSED: 9,
  SUBSCRIPTION_PAUSED: 3,
  SUBSCRIPTION_EXTENDED: 8,
  TEMPORARY_ENTITLEMENT_GRANT: 0,
} as const satisfies Record<HandledEventType, number>;

/** Given two keys, returns true when `a` comes after `b` (a null `b` is before everything). Pure. */
export function isLaterKey(a: EventKey, b: EventKey | null): boolean {
  if (b === null) return true;
  if (a.at !== b.at) return a.at > b.at;
  if (a.rank !== b.rank) return a.rank > b.rank;
  return a.id > b.id;
}
