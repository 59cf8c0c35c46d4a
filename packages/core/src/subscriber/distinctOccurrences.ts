/**
 * The deliveries of an event log that count: the first delivery of each `id`, and of the deliveries
 * of one transaction occurrence the one with the smallest id (see `distinctOccurrences`).
 *
 * Every fold of a history runs this first (a replay, an import, a rescore, each backtest cutoff), and
 * at 200 k customers it was 40 % of the fold: V8's `Set` and `Map` cost a chain of cache misses per
 * insert in a table of ~700 k strings. Here each key is hashed once into open-addressed typed arrays
 * sized for the whole log (a slot holds the delivery's position and the key's hash side by side, so
 * a probe is one cache line and strings are compared only when hashes match); a probe run longer
 * than `MAX_PROBE` (ids crafted to collide), or a log of a few events (`SMALL_LOG`), goes to
 * `distinctBySets`, the same rules on V8's collections.
 */
import type { HandledEvent, HandledEventType } from '../events/webhookSchema.js';
import { countedTransactionOf, countedTypeCode } from './eventKey.js';

/**
 * The longest probe run accepted before the log is handed to `distinctBySets`. Linear probing at
 * most half full has runs of ~70 at a million keys (Θ(log n) / (α − 1 − ln α)); ids crafted to
 * collide make longer ones and cost at most this many probes each until one passes it.
 */
export const MAX_PROBE = 256;

/**
 * Logs shorter than this go to `distinctBySets`: a store re-folds one customer's few events at a time,
 * where the tables' allocation cost more than their lookups saved (per customer of 3.4 events, the
 * typed arrays halved the rate; the two are even at ~100 events, measured 2026-11-29).
 */
const SMALL_LOG = 128;

/** FNV-1a's offset basis and prime. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * Given a text and a running hash, returns the hash continued over the text's UTF-16 code units
 * (FNV-1a, 32 bits). Its low bits mix only the code units' low bits: take a slot through `spread`.
 */
function hashText(text: string, hash: number): number {
  let h = hash;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * Given a hash, returns it with every bit mixed into the low ones (MurmurHash3's finalizer): FNV-1a's
 * low bits depend only on the code units' low bits, and a slot is taken from the low bits, so ids
 * that differ in a few characters (one export's sequential transaction ids) would crowd few slots.
 */
function spread(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Given an event id, returns the hash its slot is taken from. */
export const idHashOf = (id: string): number => spread(hashText(id, FNV_OFFSET));

/** The store an occurrence is keyed under: `store`, or '' without one (as `occurrenceStoreOf`, unescaped: no key string is built here). */
function storeOf(event: HandledEvent): string {
  const store = event.store;
  return typeof store === 'string' ? store : '';
}

/** Whether two deliveries report one transaction occurrence (one type, store and counted transaction). */
function sameOccurrence(a: HandledEvent, b: HandledEvent): boolean {
  return a.type === b.type && countedTransactionOf(a) === countedTransactionOf(b) && storeOf(a) === storeOf(b);
}

/** A table's slot count for `n` keys: a power of two, at least 2 × n (at most half full). */
export function capacityFor(n: number): number {
  let capacity = 16;
  while (capacity < 2 * n) capacity *= 2;
  return capacity;
}

/**
 * Given events, returns those that count, in input order: the first delivery of each `id`, and of
 * the deliveries of one transaction occurrence (`transactionOccurrenceOf`: one type, store and
 * transaction, e.g. a webhook and an imported row of one period) the one with the smallest id (code
 * unit order), so the choice does not depend on the order. Pure: the same objects, never copies.
 *
 * @example
 * distinctOccurrences([renewal, { ...renewal, id: 'export:t2:RENEWAL' }]).length; // 1
 */
export function distinctOccurrences(events: readonly HandledEvent[]): HandledEvent[] {
  const n = events.length;
  if (n < SMALL_LOG) return distinctBySets(events);
  const capacity = capacityFor(n);
  // Slot s is [2s] = position + 1 (0: empty), [2s + 1] = the key's hash.
  const wrap = capacity * 2 - 1;
  const ids = new Int32Array(capacity * 2);
  // Of each occurrence, the position + 1 of its chosen delivery so far.
  const occurrences = new Int32Array(capacity * 2);
  const firsts: HandledEvent[] = [];
  // Of each first delivery, its occurrence's slot index + 1 (0: it reports none).
  const occurrenceOf = new Int32Array(n);
  let repeated = false;
  let lastStore: string | undefined;
  let lastStoreHash = 0;
  for (let i = 0; i < n; i += 1) {
    const event = events[i]!;
    const id = event.id;
    const idHash = idHashOf(id);
    let slot = (idHash << 1) & wrap;
    let probes = 0;
    let seen = false;
    for (let at = ids[slot]!; at !== 0; at = ids[slot]!) {
      if (ids[slot + 1] === idHash && events[at - 1]!.id === id) {
        seen = true;
        break;
      }
      slot = (slot + 2) & wrap;
      if ((probes += 1) > MAX_PROBE) return distinctBySets(events);
    }
    if (seen) continue;
    ids[slot] = i + 1;
    ids[slot + 1] = idHash;
    const txn = countedTransactionOf(event);
    if (txn !== undefined) {
      // The type enters the hash as its number and the store as its name's hash, kept from the last
      // delivery with the same store (a log names one or two): only the transaction is hashed anew.
      const store = storeOf(event);
      if (store !== lastStore) {
        lastStore = store;
        lastStoreHash = hashText(store, FNV_OFFSET);
      }
      const occurrenceHash = spread(Math.imul(Math.imul(hashText(txn, FNV_OFFSET) ^ countedTypeCode(event.type), FNV_PRIME) ^ lastStoreHash, FNV_PRIME));
      let o = (occurrenceHash << 1) & wrap;
      probes = 0;
      for (let at = occurrences[o]!; at !== 0; at = occurrences[o]!) {
        if (occurrences[o + 1] === occurrenceHash && sameOccurrence(events[at - 1]!, event)) break;
        o = (o + 2) & wrap;
        if ((probes += 1) > MAX_PROBE) return distinctBySets(events);
      }
      const held = occurrences[o]!;
      if (held === 0) {
        occurrences[o] = i + 1;
        occurrences[o + 1] = occurrenceHash;
      } else {
        // A second delivery of one occurrence (an import over webhooks): the smaller id is chosen.
        repeated = true;
        if (id < events[held - 1]!.id) occurrences[o] = i + 1;
      }
      occurrenceOf[firsts.length] = (o >> 1) + 1;
    }
    firsts.push(event);
  }
  if (!repeated) return firsts;
  return firsts.filter((event, k) => {
    const o = occurrenceOf[k]!;
    return o === 0 || events[occurrences[(o - 1) << 1]! - 1] === event;
  });
}

/** One store's transaction ids seen (`Set`) or, once one repeats, the chosen delivery of each (`Map`). */
type Transactions = Set<string> | Map<string, HandledEvent>;

/** Per type, then per store (`storeOf`), the transactions of that store. */
type Occurrences = Map<HandledEventType, Map<string, Transactions>>;

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
 * `distinctOccurrences` on V8's collections, for a log whose keys collide in the hash table: a set
 * of ids, and per type and store the transactions seen, a set until one of them repeats (an import
 * over webhooks), then a map of the chosen delivery, with a second pass dropping the others.
 */
export function distinctBySets(events: readonly HandledEvent[]): HandledEvent[] {
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
