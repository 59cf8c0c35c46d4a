/** Folding an event log into subscribers, with duplicate deliveries dropped. */
import type { HandledEvent } from '../events/webhookSchema.js';
import { applyEvent } from './applyEvent.js';
import type { Subscriber } from './subscriber.js';

/**
 * Given a list of one customer's events (in any order, possibly with repeated deliveries), returns
 * the subscriber they fold to, or undefined for an empty list. Events are deduplicated by `id`
 * (the first delivery wins; a retry keeps its id). Pure.
 *
 * @example
 * foldEvents([purchase, renewal, renewal]).renewals; // 1: the repeated delivery is dropped
 */
export function foldEvents(events: readonly HandledEvent[]): Subscriber | undefined {
  const seen = new Set<string>();
  let subscriber: Subscriber | undefined;
  for (const event of events) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    subscriber = applyEvent(subscriber, event);
  }
  return subscriber;
}

/**
 * Given events of many customers, returns one subscriber per `app_user_id`, deduplicating by event id. Pure.
 *
 * @example
 * foldEventsByCustomer(log).get('user_1')?.state;
 */
export function foldEventsByCustomer(events: readonly HandledEvent[]): Map<string, Subscriber> {
  const seen = new Set<string>();
  const subscribers = new Map<string, Subscriber>();
  for (const event of events) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    subscribers.set(event.app_user_id, applyEvent(subscribers.get(event.app_user_id), event));
  }
  return subscribers;
}
