import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HandledEvent } from '../events/webhookSchema.js';
import type { StoredRecord } from '../store/subscriberStore.js';
import { distinctOccurrences } from '../subscriber/distinctOccurrences.js';
import { foldEvents } from '../subscriber/foldEvents.js';
import { handledEventArb } from '../testing/eventArbitraries.js';
import { backtest } from './backtest.js';
import { DEFAULT_LAPSE_MS } from './churnOutcome.js';
import { walkCutoffs } from './walkCutoffs.js';

const DAY = 86_400_000;
const T0 = 1_762_000_000_000; // the arbitraries' grid: T0 .. T0 + 10 days
const CUTOFFS = [T0 + 2 * DAY, T0 + 4 * DAY, T0 + 6 * DAY];
const HORIZON = 3 * DAY;
// A first record before and a last one after every horizon, of a customer never live (top-ups only).
const topUp = (id: string, at: number): StoredRecord => ({
  kind: 'event',
  event: { type: 'NON_RENEWING_PURCHASE', id, app_user_id: 'sentinel', event_timestamp_ms: at } as HandledEvent,
});
const SENTINELS = [topUp('first', T0 - DAY), topUp('last', T0 + 20 * DAY)];

const recordsArb: fc.Arbitrary<StoredRecord[]> = fc
  .uniqueArray(fc.tuple(handledEventArb, fc.constantFrom('a', 'b', 'c', 'd')), { selector: ([e]) => e.id, maxLength: 40 })
  .map((pairs) => pairs.map(([event, customer]): StoredRecord => ({ kind: 'event', event: { ...event, app_user_id: customer } })))
  .chain((events) =>
    fc
      .array(fc.record({ customer_id: fc.constantFrom('a', 'b', 'c', 'd'), at: fc.integer({ min: 0, max: 40 }).map((n) => T0 + n * (DAY / 4)) }), { maxLength: 8 })
      .map((activity) => [...events, ...activity.map((a): StoredRecord => ({ kind: 'activity', ...a })), ...SENTINELS]),
  );

/** A report without the duplicate count (which repeated deliveries change by design). */
function comparable(records: StoredRecord[]) {
  const report = backtest(records, { cutoffs: CUTOFFS, horizon_ms: HORIZON });
  if (!report.ok) throw new Error(JSON.stringify(report.errors));
  return { ...report.value, history: { ...report.value.history, duplicates: 0 } };
}

describe('backtest', () => {
  it('does not depend on the order of the records nor on repeated deliveries', () => {
    fc.assert(
      fc.property(recordsArb, fc.func(fc.integer()), fc.array(fc.nat(), { maxLength: 10 }), (records, key, repeats) => {
        const shuffled = [...records].sort((a, b) => key(a) - key(b));
        const repeated = [...shuffled, ...repeats.map((i) => records[i % records.length]!)];
        // As text: the reports are large (101 threshold rows per cutoff), and a deep compare of them dominated the run.
        expect(JSON.stringify(comparable(repeated))).toBe(JSON.stringify(comparable(records)));
      }),
      { numRuns: 150 },
    );
  });

  it('assesses each live subscriber exactly as the fold of its records before the cutoff', () => {
    fc.assert(
      fc.property(recordsArb, (records) => {
        const distinct = distinctOccurrences(records.flatMap((r) => (r.kind === 'event' ? [r.event] : [])));
        walkCutoffs(records, CUTOFFS, HORIZON, DEFAULT_LAPSE_MS, {
          assess: (_i, subscriber, at) => {
            let expected = foldEvents(distinct.filter((e) => e.app_user_id === subscriber.customer_id && e.event_timestamp_ms < at));
            const own = distinct.filter((e) => e.app_user_id === subscriber.customer_id);
            for (const r of records) {
              if (r.kind !== 'activity') continue;
              // Activity counts from the customer's first event on, as a live store keeps it (it drops reports of unknown customers).
              const known = own.some((e) => e.event_timestamp_ms <= r.at);
              if (r.customer_id === subscriber.customer_id && r.at < at && known && expected !== undefined && (expected.last_activity_at ?? -1) < r.at) {
                expected = { ...expected, last_activity_at: r.at };
              }
            }
            expect(subscriber).toEqual(expected);
            return null;
          },
          label: () => undefined,
        });
      }),
      { numRuns: 200 },
    );
  });

  it('never reads a record at or after a cutoff: adding such records changes no score at it', () => {
    fc.assert(
      fc.property(recordsArb, recordsArb, (records, later) => {
        const cutoff = CUTOFFS[1]!;
        const after = later.filter((r) => (r.kind === 'event' ? r.event.event_timestamp_ms : r.at) >= cutoff).map((r) =>
          r.kind === 'event' ? { ...r, event: { ...r.event, id: `later_${r.event.id}` } } : r,
        );
        const scores = (rs: StoredRecord[]) => {
          const report = backtest(rs, { cutoffs: [cutoff], horizon_ms: HORIZON });
          if (!report.ok) throw new Error(JSON.stringify(report.errors));
          const { churned, stayed } = report.value.cutoffs[0]!.metrics.histogram;
          return churned.map((c, s) => c + stayed[s]!);
        };
        expect(scores([...records, ...after])).toEqual(scores(records));
      }),
      { numRuns: 200 },
    );
  });
});
