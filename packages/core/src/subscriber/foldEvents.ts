/** Folding an event log into subscribers, with duplicate deliveries dropped. */
import type { HandledEvent } from '../events/webhookSchema.js';
import { applyEvent } from './applyEvent.js';
import { distinctOccurrences } from './distinctOccurrences.js';
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
  let subscriber: Subscriber | undefined;
  for (const event of distinctOccurrences(events)) subscriber = applyEvent(subscriber, event);
  return subscriber;
}

/**
 * Given events of many customers, returns one subscriber per `app_user_id` (in order of first
 * appearance), deduplicating as `foldEvents` does. Pure.
 *
 * A run of one customer's events (a history exported customer by customer) is folded without a
 * lookup per event and stored once: the records between its events never reach the map, so they
 * die young instead of replacing an old record in a large heap, which is what made the fold slow
 * down as customers grew.
 *
 * @example
 * foldEventsByCustomer(log).get('user_1')?.state;
 */
export function foldEventsByCustomer(events: readonly HandledEvent[]): Map<string, Subscriber> {
  const subscribers = new Map<string, Subscriber>();
  let runId: string | undefined;
  let run: Subscriber | undefined;
  for (const event of distinctOccurrences(events)) {
    const id = event.app_user_id;
    if (id !== runId) {
      if (runId !== undefined) subscribers.set(runId, run!);
      runId = id;
      run = subscribers.get(id);
    }
    run = applyEvent(run, event);
  }
  if (runId !== undefined) subscribers.set(runId, run!);
  return subscribers;
}
