/** Folding an event log into subscribers, with duplicate deliveries dropped. */
import type { HandledEvent, HandledEventType } from '../events/webhookSchema.js';
import { applyEvent } from './applyEvent.js';
import { countedTransactionOf } from './eventKey.js';
import type { Subscriber } from './subscriber.js';

/** One store's transaction ids seen (`Set`) or, once one repeats, the chosen delivery of each (`Map`). */
type Transactions = Set<string> | Map<string, HandledEvent>;

/** Per type, then per store (`storeOf`), the transactions of that store. */
type Occurrences = Map<HandledEventType, Map<string, Transactions>>;

/** The store an occurrence is keyed under: `store`, or '' without one (as `occurrenceStoreOf`, unescaped: no key string is built here). */
function storeOf(event: HandledEvent): string {
  const store = event.store;
  return typeof store === 'string' ? store : '';
}

/** Given the deliveries kept so far, a type and a store, returns the chosen delivery of each of that type's transactions in that store. */
function chosenOf(firsts: readonly HandledEvent[], type: HandledEventType, store: string): Map<string, HandledEvent> {
  const chosen = new Map<string, HandledEvent>();
  for (const event of firsts) {
    if (event.type !== type || storeOf(event) !== store) continue;
    const txn = countedTransactionOf(event);
    if (txn === undefined) continue;
    const held = chosen.get(txn);
    if (held === undefined || event.id < held.id) chosen.set(txn, event);
  }
  return chosen;
}

/**
 * Given events, returns those that count, in input order: the first delivery of each `id`, and of
 * the deliveries of one transaction occurrence (`transactionOccurrenceOf`: one type, store and
 * transaction, e.g. a webhook and an imported row of one period) the one with the smallest id (code
 * unit order), so the choice does not depend on the order. Pure.
 *
 * Two hashes per event (its id, its transaction) besides the small type and store maps, and no key
 * string built: the transactions of a type and store are a set until one of them repeats (an import
 * over webhooks), then a map of the chosen delivery, and a second pass drops the deliveries not
 * chosen.
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
    const txn = countedTransactionOf(event);
    if (txn === undefined) continue;
    const type = event.type;
    const store = storeOf(event);
    let stores = occurrences.get(type);
    if (stores === undefined) occurrences.set(type, (stores = new Map()));
    const seen = stores.get(store);
    if (seen === undefined) stores.set(store, new Set([txn]));
    else if (seen instanceof Set) {
      const before = seen.size;
      seen.add(txn);
      if (seen.size === before) {
        // The first repeat of this type and store: from now on, the chosen delivery of each transaction.
        repeated = true;
        stores.set(store, chosenOf(firsts, type, store));
      }
    } else {
      const held = seen.get(txn);
      if (held === undefined || event.id < held.id) seen.set(txn, event);
      repeated ||= held !== undefined;
    }
  }
  if (!repeated) return firsts;
  return firsts.filter((event) => {
    const txn = countedTransactionOf(event);
    if (txn === undefined) return true;
    const chosen = occurrences.get(event.type)?.get(storeOf(event));
    return !(chosen instanceof Map) || chosen.get(txn) === event;
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
