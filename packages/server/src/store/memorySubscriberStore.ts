/**
 * The in-memory implementation of the core's `SubscriberStore` port: subscribers in a Map and the
 * ids of applied events in a Set (ids only, never whole events). Durable stores implement the same
 * port in their own packages.
 */
import { applyEvent, recordActivity, type ApplyOutcome, type HandledEvent, type Subscriber, type SubscriberStore } from '@tenure/core';

/** Extra controls of the in-memory store (tests, admin). */
export interface MemorySubscriberStore extends SubscriberStore {
  /** Number of distinct event ids remembered for deduplication. */
  seenEventCount(): number;
}

/**
 * Returns an empty in-memory subscriber store that applies each event id at most once. Every
 * operation is synchronous underneath, so each one is atomic per customer in one process.
 *
 * @example
 * const store = createMemorySubscriberStore();
 * await store.applyEvent(event); // { status: 'applied', subscriber }
 * await store.applyEvent(event); // { status: 'duplicate', subscriber }
 */
export function createMemorySubscriberStore(): MemorySubscriberStore {
  const subscribers = new Map<string, Subscriber>();
  const seen = new Set<string>();
  let sorted: Subscriber[] | null = null; // list() snapshot, rebuilt after a change

  return {
    kind: 'memory',
    applyEvent(event: HandledEvent): Promise<ApplyOutcome> {
      if (seen.has(event.id)) {
        return Promise.resolve({ status: 'duplicate', subscriber: subscribers.get(event.app_user_id) });
      }
      const next = applyEvent(subscribers.get(event.app_user_id), event);
      seen.add(event.id);
      subscribers.set(next.customer_id, next);
      sorted = null;
      return Promise.resolve({ status: 'applied', subscriber: next });
    },
    get(customerId: string): Promise<Subscriber | undefined> {
      return Promise.resolve(subscribers.get(customerId));
    },
    recordActivity(customerId: string, at: number): Promise<Subscriber | undefined> {
      const current = subscribers.get(customerId);
      if (current === undefined) return Promise.resolve(undefined);
      const next = recordActivity(current, at);
      if (next !== current) {
        subscribers.set(customerId, next);
        sorted = null;
      }
      return Promise.resolve(next);
    },
    async *list(): AsyncIterable<Subscriber> {
      sorted ??= [...subscribers.values()].sort((a, b) => (a.customer_id < b.customer_id ? -1 : a.customer_id > b.customer_id ? 1 : 0));
      yield* sorted;
    },
    count: () => Promise.resolve(subscribers.size),
    close: () => Promise.resolve(),
    seenEventCount: () => seen.size,
  };
}
