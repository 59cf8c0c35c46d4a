/** Folding an event log into subscribers, with duplicate deliveries dropped. */
import type { HandledEvent } from '../events/webhookSchema.js';
import { applyEventInPlace } from './applyEvent.js';
import { DeliveryTables, distinctOccurrences, OVERFLOW, SAME_ID, SMALL_LOG } from './distinctOccurrences.js';
import type { Subscriber } from './subscriber.js';

/**
 * Given a list of one customer's events (in any order, possibly with repeated deliveries), returns
 * the subscriber they fold to, or undefined for an empty list. Deliveries are deduplicated as the
 * stores do (`distinctOccurrences`): by `id` (a retry keeps its id), and by transaction for
 * purchases, renewals and billing failures (`occurrenceKeyOf`), so a period imported from the data
 * export and delivered by webhook counts once. Pure.
 *
 * @example
 * foldEvents([purchase, renewal, renewal]).renewals; // 1: the repeated delivery is dropped
 */
export function foldEvents(events: readonly HandledEvent[]): Subscriber | undefined {
  return foldCountedEvents(distinctOccurrences(events));
}

/**
 * Given deliveries that all count (already deduplicated: a store's own log of applied events), in
 * any order, returns the subscriber they fold to, or undefined for none. Pure: the record is this
 * fold's own until it is returned, so each event is written into it (`applyEventInPlace`) instead of
 * copying it per event, which a loop of `applyEvent` does.
 *
 * @example
 * foldCountedEvents(store.eventsOf('user_1'))?.renewals;
 */
export function foldCountedEvents(events: Iterable<HandledEvent>): Subscriber | undefined {
  let subscriber: Subscriber | undefined;
  for (const event of events) subscriber = applyEventInPlace(subscriber, event);
  return subscriber;
}

/**
 * Given events of many customers, returns one subscriber per `app_user_id` (in order of first
 * appearance), deduplicating as `foldEvents` does. Pure.
 *
 * One walk of the log: each delivery is checked against the deduplication's tables and, when it
 * counts, applied while the event is still in cache (a log larger than the cache walked twice read
 * every event from memory twice). Should a later delivery of a transaction occurrence take the
 * place of one already applied (a smaller id: an import folded after the webhooks of the same
 * periods), the walk stops and the deduplicated log is folded instead. Each customer's record is
 * this fold's own until the map is returned, so each event is written into it
 * (`applyEventInPlace`): one record per customer is built, not one per event.
 *
 * @example
 * foldEventsByCustomer(log).get('user_1')?.state;
 */
export function foldEventsByCustomer(events: readonly HandledEvent[]): Map<string, Subscriber> {
  if (events.length < SMALL_LOG) return foldCountedByCustomer(distinctOccurrences(events));
  const tables = new DeliveryTables(events);
  const runs = new CustomerRuns();
  for (let i = 0; i < events.length; i += 1) {
    const occurrence = tables.admit(i);
    if (occurrence === SAME_ID) continue;
    if (occurrence === OVERFLOW || tables.displaced) return foldCountedByCustomer(distinctOccurrences(events));
    if (tables.chosen) runs.apply(events[i]!);
  }
  return runs.subscribers;
}

/** Given deliveries that all count (deduplicated), returns one subscriber per `app_user_id`. */
function foldCountedByCustomer(events: readonly HandledEvent[]): Map<string, Subscriber> {
  const runs = new CustomerRuns();
  for (const event of events) runs.apply(event);
  return runs.subscribers;
}

/** A fold's records by `app_user_id`, its own until returned: a run of one customer's events is folded with one lookup. */
class CustomerRuns {
  readonly subscribers = new Map<string, Subscriber>();
  private runId: string | undefined;
  private run: Subscriber | undefined;

  /** Writes a delivery that counts into its customer's record (a new one for a new customer). */
  apply(event: HandledEvent): void {
    const id = event.app_user_id;
    if (id !== this.runId) {
      this.runId = id;
      this.run = this.subscribers.get(id);
      if (this.run === undefined) {
        this.subscribers.set(id, (this.run = applyEventInPlace(undefined, event)));
        return;
      }
    }
    applyEventInPlace(this.run, event);
  }
}
