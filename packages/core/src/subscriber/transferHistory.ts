/**
 * What a TRANSFER does to the event histories a store keeps per customer: the senders' whole
 * histories move to the receiver (RevenueCat moves their transactions and entitlements), so the
 * receiver is re-folded from the union and the senders' records go away (docs/rules.md §2).
 * A transfer moves transactions, not identities: a moved event is re-keyed to the receiver and no
 * longer names the sender's ids (`original_app_user_id`, `aliases`), so the sender's ids stay free
 * and a later event of the sender is the sender's own (RevenueCat keeps the sender as a customer).
 */
import type { Transfer } from '../events/identityOf.js';
import type { HandledEvent } from '../events/webhookSchema.js';

/**
 * Given the event histories by customer id and a transfer (`transferOf(event)`), returns new
 * histories where every event of each sender in `transfer.from` is re-keyed to the receiver
 * `transfer.to[0]` (`reKeyToReceiver`: its `app_user_id` the receiver's, without the sender's
 * `original_app_user_id` and `aliases`) and appended to its history, and the senders have none; histories of other
 * customers are the same arrays. With no receiver, nothing moves. Pure: the input is not changed.
 *
 * @example
 * const next = transferHistory(histories, transferOf(event));
 * const receiver = foldEvents(next.get(transferOf(event).to[0]!) ?? []);
 */
export function transferHistory(
  histories: ReadonlyMap<string, readonly HandledEvent[]>,
  transfer: Transfer,
): Map<string, readonly HandledEvent[]> {
  const next = new Map(histories);
  const receiver = transfer.to[0];
  if (receiver === undefined) return next;
  const moved: HandledEvent[] = [...(histories.get(receiver) ?? [])];
  for (const sender of transfer.from) {
    const events = histories.get(sender);
    if (events === undefined) continue;
    for (const event of events) moved.push(reKeyToReceiver(event, receiver));
    next.delete(sender);
  }
  if (moved.length > 0) next.set(receiver, moved);
  return next;
}

/**
 * Given an event of a transfer's sender and the receiving id, returns the event as the receiver's:
 * `app_user_id` is the receiver, and the sender's `original_app_user_id` and `aliases` are dropped
 * (a transfer moves transactions, not identities). Pure.
 *
 * @example
 * reKeyToReceiver({ ...renewal, app_user_id: 'old', aliases: ['old'] }, 'new'); // { ...renewal, app_user_id: 'new' }
 */
export function reKeyToReceiver(event: HandledEvent, receiver: string): HandledEvent {
  const { original_app_user_id: _original, aliases: _aliases, ...rest } = event;
  return { ...rest, app_user_id: receiver };
}
