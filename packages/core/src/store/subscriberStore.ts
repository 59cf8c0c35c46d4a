/**
 * The store port: what an adapter needs to keep subscribers. Types only; implementations live in
 * adapter packages (in-memory in @tenure/server, durable stores in their own packages), so a store
 * package depends on the core alone.
 */
import type { HandledEvent } from '../events/webhookSchema.js';
import type { Subscriber } from '../subscriber/subscriber.js';

/** What happened to one delivered event. */
export type ApplyOutcome =
  | { status: 'applied'; subscriber: Subscriber }
  /** The event id was seen before: nothing changed. */
  | { status: 'duplicate'; subscriber: Subscriber | undefined };

/** Persistence of subscribers with exactly-once application of events. Async so any backend fits. */
export interface SubscriberStore {
  /** Human-readable name for logs (e.g. "memory", "postgres"). */
  readonly kind: string;
  /**
   * Applies `event` with `applyEvent` unless its `id` was already applied, atomically per customer.
   * Implementations must remember applied ids (not whole events) for deduplication.
   */
  applyEvent(event: HandledEvent): Promise<ApplyOutcome>;
  /** The subscriber, or undefined for an unknown customer. */
  get(customerId: string): Promise<Subscriber | undefined>;
  /** Applies `recordActivity`; undefined for an unknown customer (nothing is created). */
  recordActivity(customerId: string, at: number): Promise<Subscriber | undefined>;
  /** Every subscriber, in customer_id order. */
  list(): AsyncIterable<Subscriber>;
  /** Number of subscribers. */
  count(): Promise<number>;
  /** Releases resources (connections); the in-memory store does nothing. */
  close(): Promise<void>;
}
