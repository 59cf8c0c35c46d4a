// The fold's fast paths (ids and occurrences hashed once into typed arrays, their fallback on V8's
// collections, runs of one customer folded without a lookup per event) against the plain
// definitions they replace.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HandledEvent } from '../events/webhookSchema.js';
import { handledEventArb } from '../testing/index.js';
import { applyEvent } from './applyEvent.js';
import { transactionOccurrenceOf } from './eventKey.js';
import { capacityFor, distinctBySets, distinctOccurrences, idHashOf, MAX_PROBE } from './distinctOccurrences.js';
import { foldEventsByCustomer } from './foldEvents.js';
import type { Subscriber } from './subscriber.js';

/** The definition: the first delivery of each id; of one transaction occurrence, the smallest id. */
function referenceDistinct(events: readonly HandledEvent[]): HandledEvent[] {
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
  return firsts.filter((event) => {
    const occurrence = transactionOccurrenceOf(event);
    return occurrence === undefined || chosen.get(occurrence) === event;
  });
}

/** One lookup and one store per event, as the fold did before runs. */
function referenceByCustomer(events: readonly HandledEvent[]): Map<string, Subscriber> {
  const subscribers = new Map<string, Subscriber>();
  for (const event of referenceDistinct(events)) subscribers.set(event.app_user_id, applyEvent(subscribers.get(event.app_user_id), event));
  return subscribers;
}

/**
 * Events of a few customers drawn from `ids` ids and few transactions, so repeated ids (also under
 * another customer), repeated occurrences (also across customers, types and stores) and empty or
 * absent transaction ids all occur; in runs of one customer or interleaved.
 */
const deliveriesArb = (ids: number, minLength: number, maxLength: number): fc.Arbitrary<HandledEvent[]> =>
  fc.array(
    fc.record({
      event: handledEventArb,
      id: fc.nat(ids - 1).map((n) => `e${n}`),
      customer: fc.constantFrom('u1', 'u2', 'u3'),
      txn: fc.constantFrom('t1', 't2', '', null, undefined),
      // Stores whose transactions share ids, none, and names a key would confuse if not escaped.
      store: fc.constantFrom('APP_STORE', 'PLAY_STORE', 'A:B', 'A%3AB', null, undefined),
    }),
    { minLength, maxLength },
  ).map((drawn) => drawn.map(({ event, id, customer, txn, store }): HandledEvent => ({ ...event, id, app_user_id: customer, transaction_id: txn, store })));

/** Short histories: 8 ids, up to 40 events (the stores' per-customer re-folds). */
const historyArb = deliveriesArb(8, 0, 40);

describe('fold fast paths', () => {
  it('distinctOccurrences keeps exactly the deliveries the definition keeps, in input order', () => {
    fc.assert(fc.property(historyArb, (events) => {
      expect(distinctOccurrences(events)).toEqual(referenceDistinct(events));
      // The very objects, not copies.
      distinctOccurrences(events).forEach((e, i) => expect(e).toBe(referenceDistinct(events)[i]));
    }), { numRuns: 500 });
  });

  it('distinctOccurrences keeps the definition on logs long enough for its hash tables (128 events and more)', () => {
    fc.assert(fc.property(deliveriesArb(150, 128, 300), (events) => {
      const kept = distinctOccurrences(events);
      const expected = referenceDistinct(events);
      expect(kept).toHaveLength(expected.length);
      kept.forEach((e, i) => expect(e).toBe(expected[i]));
    }), { numRuns: 100 });
  });

  it('distinctBySets (for short logs and colliding keys) keeps exactly the deliveries the definition keeps', () => {
    fc.assert(fc.property(historyArb, (events) => {
      distinctBySets(events).forEach((e, i) => expect(e).toBe(referenceDistinct(events)[i]));
      expect(distinctBySets(events)).toHaveLength(referenceDistinct(events).length);
    }), { numRuns: 300 });
  });

  it('keeps the definition for ids crafted to fall in one slot of the hash table', () => {
    // More ids than the probe limit whose hashes agree in the bits that pick a slot: each probes
    // from the same slot, the runs pass the limit and the log goes to the fallback, whose answer
    // must be the definition's.
    const count = MAX_PROBE + 60;
    const slots = capacityFor(2 * count) - 1;
    const ids: string[] = [];
    for (let i = 0; ids.length < count; i += 1) if ((idHashOf(`evt_${i}`) & slots) === 0) ids.push(`evt_${i}`);
    const txns = ['t1', 't2', null];
    fc.assert(fc.property(fc.array(fc.record({ event: handledEventArb, id: fc.constantFrom(...ids), txn: fc.constantFrom(...txns) }), { minLength: count, maxLength: 2 * count }), (drawn) => {
      const events = drawn.map(({ event, id, txn }, i): HandledEvent => ({ ...event, id: i < count ? ids[i]! : id, transaction_id: txn }));
      distinctOccurrences(events).forEach((e, i) => expect(e).toBe(referenceDistinct(events)[i]));
      expect(distinctOccurrences(events)).toHaveLength(referenceDistinct(events).length);
      expect(foldEventsByCustomer(events)).toEqual(referenceByCustomer(events));
    }), { numRuns: 20 });
  });

  it('foldEventsByCustomer folds every customer as one lookup per event did, in the same key order', () => {
    fc.assert(fc.property(historyArb, (events) => {
      const fast = foldEventsByCustomer(events);
      const reference = referenceByCustomer(events);
      expect([...fast.keys()]).toEqual([...reference.keys()]);
      expect(fast).toEqual(reference);
    }), { numRuns: 500 });
  });

  it('foldEventsByCustomer keeps the definition on logs long enough for the hash tables, with ids and occurrences repeated', () => {
    // 128 events and more (distinctOccurrences' typed tables); 60 ids and two transactions, so ids
    // repeat and occurrences arrive again under both larger and smaller ids.
    fc.assert(fc.property(deliveriesArb(60, 128, 384), (events) => {
      const fast = foldEventsByCustomer(events);
      const reference = referenceByCustomer(events);
      expect([...fast.keys()]).toEqual([...reference.keys()]);
      expect(fast).toEqual(reference);
    }), { numRuns: 150 });
  });

  it('sorting a history by customer (runs) folds to the same subscribers', () => {
    fc.assert(fc.property(historyArb, (events) => {
      const distinct = referenceDistinct(events);
      const grouped = [...distinct].sort((a, b) => (a.app_user_id < b.app_user_id ? -1 : a.app_user_id > b.app_user_id ? 1 : 0));
      expect(new Map([...foldEventsByCustomer(grouped)].sort())).toEqual(new Map([...foldEventsByCustomer(distinct)].sort()));
    }), { numRuns: 300 });
  });
});
