/**
 * What a TRANSFER does to the event histories a store keeps per customer: the senders' whole
 * histories move to the receiver (RevenueCat moves their transactions and entitlements), so the
 * receiver is re-folded from the union and the senders' records go away (docs/rules.md §2).
 */
import type { Transfer } from '../events/identityOf.js';
import type { HandledEvent } from '../events/webhookSchema.js';

/**
 * Given the event histories by customer id and a transfer (`transferOf(event)`), returns new
 * histories where every event of each sender in `transfer.from` is re-keyed to the receiver
 * `transfer.to[0]` and appended to its history, and the senders have none; histories of other
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
    for (const event of events) moved.push({ ...event, app_user_id: receiver });
    next.delete(sender);
  }
  if (moved.length > 0) next.set(receiver, moved);
  return next;
}
