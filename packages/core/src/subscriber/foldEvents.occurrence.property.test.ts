// Per-transaction counting: deliveries of one occurrence (a webhook and the data import of one
// period, under different ids) fold as one, in any order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HandledEvent } from '../events/webhookSchema.js';
import { distinctEventsArb } from '../testing/index.js';
import { occurrenceKeyOf, transactionOccurrenceOf } from './eventKey.js';
import { distinctOccurrences, foldEvents, foldEventsByCustomer } from './foldEvents.js';

/** Distinct events, each with a transaction of its own, and copies of some under other ids. */
const withCopiesArb = (copyId: (original: string, n: number) => fc.Arbitrary<string>) =>
  distinctEventsArb
    .map((events) => events.map((e, i): HandledEvent => ({ ...e, transaction_id: `t${i}` })))
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
  it('keys purchases, renewals, one-time purchases and billing failures by transaction, everything else by id', () => {
    const base = { id: 'rc-1', transaction_id: 'al2' };
    expect(occurrenceKeyOf({ ...base, type: 'RENEWAL' })).toBe('RENEWAL:al2');
    expect(occurrenceKeyOf({ ...base, type: 'INITIAL_PURCHASE' })).toBe('INITIAL_PURCHASE:al2');
    expect(occurrenceKeyOf({ ...base, type: 'NON_RENEWING_PURCHASE' })).toBe('NON_RENEWING_PURCHASE:al2');
    expect(occurrenceKeyOf({ ...base, type: 'BILLING_ISSUE' })).toBe('BILLING_ISSUE:al2');
    expect(occurrenceKeyOf({ ...base, type: 'CANCELLATION' })).toBe('rc-1');
    expect(occurrenceKeyOf({ ...base, type: 'EXPIRATION' })).toBe('rc-1');
    expect(occurrenceKeyOf({ id: 'rc-1', type: 'RENEWAL', transaction_id: null })).toBe('rc-1');
    expect(occurrenceKeyOf({ id: 'rc-1', type: 'RENEWAL', transaction_id: '' })).toBe('rc-1');
    expect(transactionOccurrenceOf({ type: 'RENEWAL' })).toBeUndefined();
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
