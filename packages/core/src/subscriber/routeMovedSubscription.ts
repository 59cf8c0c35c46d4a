/**
 * Where an event of a transferred subscription goes (docs/rules.md §2, Transfers). A TRANSFER moves
 * the sender's events to the receiver; the stores remember which subscriptions moved (each moved
 * event's `original_transaction_id`) and to which receiving id, and an event of a moved
 * subscription delivered later (a renewal, a cancellation, a late copy) is re-keyed to that
 * receiver as the transfer re-keyed its earlier events, so it lands on the receiver's person and
 * never brings the sender back. These functions say what to do; keeping the map is the store's work.
 */
import type { HandledEvent } from '../events/webhookSchema.js';
import { identityIdsOf } from './groupByIdentity.js';
import { reKeyToReceiver } from './transferHistory.js';

/**
 * Given an event, returns the subscription a transfer moves it with: its `original_transaction_id`
 * when it is a non-empty string, else undefined (an event without one, a top-up or a temporary
 * grant, belongs to no subscription and is never routed). Pure.
 *
 * @example
 * movedSubscriptionOf({ ...renewal, original_transaction_id: 'otx_1' }); // 'otx_1'
 * movedSubscriptionOf({ ...topUp, original_transaction_id: null }); // undefined
 */
export function movedSubscriptionOf(event: Pick<HandledEvent, 'original_transaction_id'>): string | undefined {
  const id = event.original_transaction_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * Given an event and where each moved subscription went (`receiverOf(original_transaction_id)`: the
 * receiving id of the latest transfer that moved it, undefined when none did), returns the event
 * re-keyed to that receiver (`reKeyToReceiver`: its `app_user_id` the receiver's, without the
 * sender's `original_app_user_id` and `aliases`); the event itself when its subscription did not
 * move, or when it already names the receiving id (it is the receiver's own event, and keeps the
 * ids it links). Pure when `receiverOf` is.
 *
 * @example
 * const moved = new Map([['otx_1', 'user_42']]);
 * routeMovedSubscription({ ...renewal, app_user_id: 'old', original_transaction_id: 'otx_1' }, (s) => moved.get(s)).app_user_id; // 'user_42'
 */
export function routeMovedSubscription(event: HandledEvent, receiverOf: (subscription: string) => string | undefined): HandledEvent {
  const subscription = movedSubscriptionOf(event);
  if (subscription === undefined) return event;
  const receiver = receiverOf(subscription);
  if (receiver === undefined || identityIdsOf(event).includes(receiver)) return event;
  return reKeyToReceiver(event, receiver);
}
