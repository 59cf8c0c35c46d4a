/** Folding an event log into subscribers, with duplicate deliveries dropped. */
import type { HandledEvent, HandledEventType } from '../events/webhookSchema.js';
import { applyEvent } from './applyEvent.js';
import { isCountedPerTransaction } from './eventKey.js';
import type { Subscriber } from './subscriber.js';

/** The deliveries of each transaction occurrence, by type then `transaction_id`: no key string is built per event. */
type Occurrences = Map<HandledEventType, Map<string, HandledEvent>>;

/** The occurrence's chosen delivery so far, or undefined when the event carries no transaction occurrence. */
function occurrenceSlot(occurrences: Occurrences, event: HandledEvent): Map<string, HandledEvent> | undefined {
  const txn = event.transaction_id;
  if (!isCountedPerTransaction(event.type) || typeof txn !== 'string' || txn === '') return undefined;
  let byTxn = occurrences.get(event.type);
  if (byTxn === undefined) occurrences.set(event.type, (byTxn = new Map()));
  return byTxn;
}

/**
 * Given events, returns those that count, in input order: the first delivery of each `id`, and of
 * the deliveries of one transaction occurrence (`transactionOccurrenceOf`: a webhook and an
 * imported row of one period) the one with the smallest id (code unit order), so the choice does
 * not depend on the order. Pure.
 *
 * One pass with one hash of each id; a second pass only when two distinct deliveries of one
 * occurrence were seen (an import over webhooks), which is rare.
 *
 * @example
 * distinctOccurrences([renewal, { ...renewal, id: 'export:t2:RENEWAL' }]).length; // 1
 */
export function distinctOccurrences(events: readonly HandledEvent[]): HandledEvent[] {
  const ids = new Set<string>();
  const firsts: HandledEvent[] = [];
  const occurrences: Occurrences = new Map();
  let repeated = false;
  for (const event of events) {
    const size = ids.size;
    ids.add(event.id);
    if (ids.size === size) continue;
    firsts.push(event);
    const slot = occurrenceSlot(occurrences, event);
    if (slot === undefined) continue;
    const txn = event.transaction_id as string;
    const held = slot.get(txn);
    if (held === undefined) slot.set(txn, event);
    else {
      repeated = true;
      if (event.id < held.id) slot.set(txn, event);
    }
  }
  if (!repeated) return firsts;
  return firsts.filter((event) => {
    const slot = occurrenceSlot(occurrences, event);
    return slot === undefined || slot.get(event.transaction_id as string) === event;
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
