/** Folding an event log into subscribers, with duplicate deliveries dropped. */
import type { HandledEvent } from '../events/webhookSchema.js';
import { applyEvent } from './applyEvent.js';
import { transactionOccurrenceOf } from './eventKey.js';
import type { Subscriber } from './subscriber.js';

/**
 * Given events, returns those that count, in input order: the first delivery of each `id`, and of
 * the deliveries of one transaction occurrence (`transactionOccurrenceOf`: a webhook and an
 * imported row of one period) the one with the smallest id (code unit order), so the choice does
 * not depend on the order. Pure.
 *
 * @example
 * distinctOccurrences([renewal, { ...renewal, id: 'export:t2:RENEWAL' }]).length; // 1
 */
export function distinctOccurrences(events: readonly HandledEvent[]): HandledEvent[] {
  const ids = new Set<string>();
  const firsts: HandledEvent[] = [];
  const chosen = new Map<string, HandledEvent>();
  for (const event of events) {
    if (ids.has(event.id)) continue;
    ids.add(event.id);
    firsts.push(event);
    const occurrence = transactionOccurrenceOf(event);
    if (occurrence === undefined) continue;
    const held = chosen.get(occurrence);
    if (held === undefined || event.id < held.id) chosen.set(occurrence, event);
  }
  if (chosen.size === 0) return firsts;
  return firsts.filter((event) => {
    const occurrence = transactionOccurrenceOf(event);
    return occurrence === undefined || chosen.get(occurrence) === event;
  });
}

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
 * Given events of many customers, returns one subscriber per `app_user_id`, deduplicating as
 * `foldEvents` does. Pure.
 *
 * @example
 * foldEventsByCustomer(log).get('user_1')?.state;
 */
export function foldEventsByCustomer(events: readonly HandledEvent[]): Map<string, Subscriber> {
  const subscribers = new Map<string, Subscriber>();
  for (const event of distinctOccurrences(events)) subscribers.set(event.app_user_id, applyEvent(subscribers.get(event.app_user_id), event));
  return subscribers;
}
