/**
 * The memory store's map of transferred subscriptions (docs/rules.md §2, Transfers): each
 * subscription a TRANSFER moved (its events' `original_transaction_id`) to the receiving id of the
 * latest transfer that moved it, so an event of it delivered later is re-keyed to that receiver
 * (`routeMovedSubscription`) and lands on the receiver's person, not on the sender's.
 */
import { compareIds, movedSubscriptionOf, routeMovedSubscription, type HandledEvent, type MovedSubscription } from '@tenure/core';

/** Moved subscriptions to their receivers. */
export class MovedSubscriptions {
  private readonly receiverOf = new Map<string, string>();

  /** Remembers that `event`'s subscription (if it has one) now belongs to `receiver`: the latest move wins. */
  record(event: HandledEvent, receiver: string): void {
    const subscription = movedSubscriptionOf(event);
    if (subscription !== undefined) this.receiverOf.set(subscription, receiver);
  }

  /** Restores a route as a transfer would have left it (an import of an export): the latest wins. */
  restore(route: MovedSubscription): void {
    this.receiverOf.set(route.original_transaction_id, route.receiver);
  }

  /** Every route, in `original_transaction_id` order (code point order). */
  all(): MovedSubscription[] {
    return [...this.receiverOf]
      .map(([original_transaction_id, receiver]) => ({ original_transaction_id, receiver }))
      .sort((a, b) => compareIds(a.original_transaction_id, b.original_transaction_id));
  }

  /** The event as it is to be stored: re-keyed to its subscription's receiver when it moved. */
  route(event: HandledEvent): HandledEvent {
    return this.receiverOf.size === 0 ? event : routeMovedSubscription(event, (subscription) => this.receiverOf.get(subscription));
  }
}
