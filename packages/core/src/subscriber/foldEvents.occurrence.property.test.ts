// Per-transaction counting: deliveries of one occurrence (a webhook and the data import of one
// period, under different ids) fold as one, in any order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HandledEvent } from '../events/webhookSchema.js';
import { distinctEventsArb } from '../testing/index.js';
import { countedTransactionOf, countedTypeCode, EVENT_PRECEDENCE, isCountedPerTransaction, occurrenceKeyOf, occurrenceStoreOf, transactionOccurrenceOf } from './eventKey.js';
import { distinctOccurrences } from './distinctOccurrences.js';
import { foldEvents, foldEventsByCustomer } from './foldEvents.js';

/** Distinct events, each an occurrence of its own (a store and transaction), and copies of some under other ids. */
const withCopiesArb = (copyId: (original: string, n: number) => fc.Arbitrary<string>) =>
  distinctEventsArb
    // Each event an occurrence of its own, pairs of them sharing a transaction id in two stores.
    .map((events) => events.map((e, i): HandledEvent => ({ ...e, transaction_id: `t${i >> 1}`, store: i % 2 === 0 ? 'APP_STORE' : 'PLAY_STORE' })))
    .chain((events) =>
      fc.tuple(
        fc.constant(events),
        fc.array(
          fc.integer({ min: 0, max: events.length - 1 }).chain((i) => copyId(events[i]!.id, i).map((id) => ({ ...events[i]!, id }))),
          { maxLength: 15 },
        ),
        fc.integer(),
      ),
    );

const shuffle = <T>(items: readonly T[], seed: number): T[] =>
  items.map((e, i) => ({ e, k: Math.imul(i + 1, seed | 1) >>> 0 })).sort((a, b) => a.k - b.k).map(({ e }) => e);

describe('occurrences (per-transaction dedupe)', () => {
  it('numbers exactly the four counted types, each with a number of its own (the type in the occurrence hash)', () => {
    const types = Object.keys(EVENT_PRECEDENCE) as (keyof typeof EVENT_PRECEDENCE)[];
    const counted = types.filter((type) => countedTypeCode(type) !== 0);
    expect(counted.sort()).toEqual(['BILLING_ISSUE', 'INITIAL_PURCHASE', 'NON_RENEWING_PURCHASE', 'RENEWAL']);
    expect(new Set(counted.map(countedTypeCode)).size).toBe(4);
    for (const type of types) expect(isCountedPerTransaction(type)).toBe(counted.includes(type));
  });

  it('keys purchases, renewals, one-time purchases and billing failures by store and transaction, everything else by id', () => {
    const base = { id: 'rc-1', transaction_id: 'al2', store: 'APP_STORE' };
    expect(occurrenceKeyOf({ ...base, type: 'RENEWAL' })).toBe('RENEWAL:APP_STORE:al2');
    expect(occurrenceKeyOf({ ...base, type: 'INITIAL_PURCHASE' })).toBe('INITIAL_PURCHASE:APP_STORE:al2');
    expect(occurrenceKeyOf({ ...base, type: 'NON_RENEWING_PURCHASE', store: 'PLAY_STORE' })).toBe('NON_RENEWING_PURCHASE:PLAY_STORE:al2');
    expect(occurrenceKeyOf({ ...base, type: 'BILLING_ISSUE' })).toBe('BILLING_ISSUE:APP_STORE:al2');
    expect(occurrenceKeyOf({ ...base, type: 'CANCELLATION' })).toBe('rc-1');
    expect(occurrenceKeyOf({ ...base, type: 'EXPIRATION' })).toBe('rc-1');
    expect(occurrenceKeyOf({ id: 'rc-1', type: 'RENEWAL', transaction_id: null })).toBe('rc-1');
    expect(occurrenceKeyOf({ id: 'rc-1', type: 'RENEWAL', transaction_id: '' })).toBe('rc-1');
    expect(transactionOccurrenceOf({ type: 'RENEWAL' })).toBeUndefined();
    // No store: an empty segment (a store of its own); a store naming ':' or '%' is escaped.
    expect(transactionOccurrenceOf({ type: 'RENEWAL', transaction_id: 'al2' })).toBe('RENEWAL::al2');
    expect(transactionOccurrenceOf({ type: 'RENEWAL', transaction_id: 'al2', store: null })).toBe('RENEWAL::al2');
    expect(transactionOccurrenceOf({ type: 'RENEWAL', transaction_id: 'B:al2', store: 'A' })).toBe('RENEWAL:A:B:al2');
    expect(transactionOccurrenceOf({ type: 'RENEWAL', transaction_id: 'al2', store: 'A:B' })).toBe('RENEWAL:A%3AB:al2');
    expect(transactionOccurrenceOf({ type: 'RENEWAL', transaction_id: 'al2', store: 'A%3AB' })).toBe('RENEWAL:A%253AB:al2');
    expect(occurrenceStoreOf({ store: undefined })).toBe('');
    // The key's parts apart, for indexes that nest by type, store and transaction.
    expect(countedTransactionOf({ type: 'RENEWAL', transaction_id: 'B:al2' })).toBe('B:al2');
    expect(countedTransactionOf({ type: 'RENEWAL', transaction_id: '' })).toBeUndefined();
    expect(countedTransactionOf({ type: 'EXPIRATION', transaction_id: 'al2' })).toBeUndefined();
  });

  it('an event has a counted transaction exactly when it has an occurrence key, which is its type, store and that transaction', () => {
    fc.assert(
      fc.property(distinctEventsArb, fc.constantFrom('APP_STORE', 'A:B', 'A%B', '', null, undefined), fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)), (events, store, txn) => {
        for (const e of events) {
          const event: HandledEvent = { ...e, store, transaction_id: txn };
          const counted = countedTransactionOf(event);
          const key = transactionOccurrenceOf(event);
          expect(key === undefined).toBe(counted === undefined);
          if (counted !== undefined) expect(key).toBe(`${event.type}:${occurrenceStoreOf(event)}:${counted}`);
        }
      }),
    );
  });

  it('two stores\' transactions with one id are two occurrences; one store\'s under two ids is one', () => {
    const storeArb = fc.constantFrom('APP_STORE', 'PLAY_STORE', 'STRIPE', 'A:B', 'A%3AB', null);
    fc.assert(
      fc.property(distinctEventsArb, fc.nat(), storeArb, storeArb, fc.string({ minLength: 1, maxLength: 6 }), (events, pick, storeA, storeB, txn) => {
        const counted = events.filter((e) => ['INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE', 'BILLING_ISSUE'].includes(e.type));
        fc.pre(counted.length > 0);
        const base: HandledEvent = { ...counted[pick % counted.length]!, transaction_id: txn };
        const inA: HandledEvent = { ...base, id: 'zz-a', store: storeA };
        const inB: HandledEvent = { ...base, id: 'zz-b', store: storeB };
        const sameStore = (storeA ?? '') === (storeB ?? '');
        expect(transactionOccurrenceOf(inA) === transactionOccurrenceOf(inB)).toBe(sameStore);
        const kept = distinctOccurrences([inB, inA]);
        expect(kept).toEqual(sameStore ? [inA] : [inB, inA]);
        expect(distinctOccurrences([inA, inB])).toEqual(sameStore ? [inA] : [inA, inB]);
        if (base.type === 'RENEWAL') expect(foldEvents([inA, inB])!.renewals).toBe(sameStore ? 1 : 2);
        if (base.type === 'BILLING_ISSUE') expect(foldEvents([inA, inB])!.billing_failures).toBe(sameStore ? 1 : 2);
      }),
    );
  });

  it('a copy of an occurrence under a later id changes nothing, wherever it lands', () => {
    fc.assert(
      fc.property(withCopiesArb((original, n) => fc.integer({ min: 0, max: 9 }).map((k) => `${original}~${n}${k}`)), ([events, copies, seed]) => {
        const counted = copies.filter((c) => transactionOccurrenceOf(c) !== undefined);
        expect(foldEvents(shuffle([...events, ...counted], seed))).toEqual(foldEvents(events));
      }),
    );
  });

  // Copy ids sort before or after the originals' (`evt_…`); one id never names two different events.
  it('copies under any ids fold to the same subscriber in any order, counting one renewal and one failure per transaction', () => {
    fc.assert(
      fc.property(withCopiesArb((_, i) => fc.tuple(fc.constantFrom('a', 'z'), fc.nat(1_000)).map(([side, n]) => `${side}copy_${i}_${n}`)), ([events, copies, seed]) => {
        const all = [...events, ...copies];
        const folded = foldEvents(all);
        expect(foldEvents(shuffle(all, seed))).toEqual(folded);
        expect(foldEvents(shuffle(distinctOccurrences(all), seed))).toEqual(folded);
        const kept = distinctOccurrences(all);
        expect(new Set(kept.map(occurrenceKeyOf)).size).toBe(kept.length);
        expect(folded!.renewals).toBe(new Set(kept.filter((e) => e.type === 'RENEWAL').map(occurrenceKeyOf)).size);
        expect(folded!.billing_failures).toBe(new Set(kept.filter((e) => e.type === 'BILLING_ISSUE').map(occurrenceKeyOf)).size);
        expect(foldEventsByCustomer(shuffle(all, seed)).get('user_1')).toEqual(folded);
      }),
    );
  });
});
