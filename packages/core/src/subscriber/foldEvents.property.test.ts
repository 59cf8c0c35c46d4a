import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctEventsArb } from '../testing/index.js';
import { compareIds } from '../atRisk/compareIds.js';
import { applyEvent, MAX_ALIASES } from './applyEvent.js';
import { foldEvents } from './foldEvents.js';

describe('foldEvents properties', () => {
  it('folds any permutation of distinct events to the same subscriber', () => {
    fc.assert(
      fc.property(
        distinctEventsArb.chain((events) => fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length }))),
        ([events, permuted]) => {
          expect(foldEvents(permuted)).toEqual(foldEvents(events));
        },
      ),
    );
  });

  it('gives the same subscriber with repeated deliveries as without them', () => {
    fc.assert(
      fc.property(
        distinctEventsArb.chain((events) =>
          fc.tuple(fc.constant(events), fc.array(fc.integer({ min: 0, max: events.length - 1 }), { maxLength: 20 }), fc.integer()),
        ),
        ([events, repeats, seed]) => {
          const withRepeats = [...events, ...repeats.map((i) => events[i]!)];
          // shuffle deterministically from the seed so repeats land anywhere
          const shuffled = withRepeats
            .map((e, i) => ({ e, k: Math.imul(i + 1, seed | 1) >>> 0 }))
            .sort((a, b) => a.k - b.k)
            .map(({ e }) => e);
          expect(foldEvents(shuffled)).toEqual(foldEvents(events));
        },
      ),
    );
  });

  it('counts one renewal per distinct RENEWAL event and one failure per distinct BILLING_ISSUE', () => {
    fc.assert(
      fc.property(distinctEventsArb, (events) => {
        const s = foldEvents(events)!;
        expect(s.renewals).toBe(events.filter((e) => e.type === 'RENEWAL').length);
        expect(s.billing_failures).toBe(events.filter((e) => e.type === 'BILLING_ISSUE').length);
      }),
    );
  });

  it('keeps a record of fixed size whatever the number of events', () => {
    const keys = Object.keys(foldEvents(fc.sample(distinctEventsArb, 1)[0]!)!).sort();
    fc.assert(
      fc.property(distinctEventsArb, (events) => {
        const s = foldEvents(events)!;
        expect(Object.keys(s).sort()).toEqual(keys);
        // Bounded whatever the history: keys, revenue and at most MAX_ALIASES aliases (short ones here).
        expect(JSON.stringify(s).length).toBeLessThan(1800);
      }),
    );
  });

  it('equals a left fold of applyEvent when there are no repeats', () => {
    fc.assert(
      fc.property(distinctEventsArb, (events) => {
        expect(foldEvents(events)).toEqual(events.reduce<ReturnType<typeof foldEvents>>((s, e) => applyEvent(s, e), undefined));
      }),
    );
  });

  it('holds the MAX_ALIASES smallest of every alias the events carried, sorted and distinct, in any order', () => {
    // Aliases drawn from a pool larger than the bound, repeated across events (as customers' events repeat theirs).
    const pool = Array.from({ length: MAX_ALIASES + 6 }, (_, i) => `alias_${String(i).padStart(3, '0')}`);
    fc.assert(
      fc.property(
        distinctEventsArb.chain((events) => fc.tuple(fc.constant(events), fc.array(fc.subarray(pool), { minLength: events.length, maxLength: events.length }))),
        ([events, lists]) => {
          const withAliases = events.map((e, i) => ({ ...e, aliases: lists[i]! }));
          const union = [...new Set(lists.flat())].sort(compareIds).slice(0, MAX_ALIASES);
          expect(foldEvents(withAliases)!.aliases).toEqual(union);
          expect(foldEvents([...withAliases].reverse())!.aliases).toEqual(union);
        },
      ),
    );
  });
});
