/**
 * The memory store's map of transferred subscriptions (docs/rules.md §2, Transfers): each
 * subscription a TRANSFER moved (its events' `original_transaction_id`) to the receiving id of the
 * latest transfer that moved it, so an event of it delivered later is re-keyed to that receiver
 * (`routeMovedSubscription`) and lands on the receiver's person, not on the sender's.
 */
import { movedSubscriptionOf, routeMovedSubscription, type HandledEvent } from '@tenure/core';

/** Moved subscriptions to their receivers. */
export class MovedSubscriptions {
  private readonly receiverOf = new Map<string, string>();

  /** Remembers that `event`'s subscription (if it has one) now belongs to `receiver`: the latest move wins. */
  record(event: HandledEvent, receiver: string): void {
    const subscription = movedSubscriptionOf(event);
    if (subscription !== undefined) this.receiverOf.set(subscription, receiver);
  }

  /** The event as it is to be stored: re-keyed to its subscription's receiver when it moved. */
  route(event: HandledEvent): HandledEvent {
    return this.receiverOf.size === 0 ? event : routeMovedSubscription(event, (subscription) => this.receiverOf.get(subscription));
  }
}
