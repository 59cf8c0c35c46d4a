// AtRiskIndex against a plain array sorted on every query: pages in score and revenue order (any
// state, score range, position and limit), totals and due rows, after arbitrary adds and key updates.
import fc from 'fast-check';
import { SUBSCRIBER_STATES, compareAtRisk, compareRevenue, type SubscriberState } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { AtRiskIndex, type IndexedRow, type IndexRange } from './atRiskIndex.js';
import type { RevenueRange } from './revenueCells.js';
import { codePointKey } from './codePointKey.js';

const ids = ['a', 'b', 'B', 'é', '\uFFFD', '\u{1F600}', 'a\uE000', 'a\u{10000}', 'zz', '日本'];
const keysArb = fc.record({
  // Biased to a few (state, score) cells, so cells often hold several rows when one moves out.
  state: fc.oneof({ weight: 3, arbitrary: fc.constantFrom<SubscriberState>('active', 'billing_issue') }, { weight: 1, arbitrary: fc.constantFrom(...SUBSCRIBER_STATES) }),
  score: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(60, 90) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 12 }).map((n) => n * 10) }),
  valueCents: fc.constantFrom(0, 99, 999, 999, 5999),
  rescoreAt: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
});
const rangeArb: fc.Arbitrary<IndexRange> = fc.record({
  minScore: fc.integer({ min: -1, max: 121 }),
  maxScore: fc.option(fc.integer({ min: -1, max: 121 }), { nil: null }),
  state: fc.option(fc.constantFrom(...SUBSCRIBER_STATES), { nil: undefined }),
  after: fc.option(fc.record({ score: fc.integer({ min: -1, max: 121 }), customer_id: fc.constantFrom('', ...ids, '\u{10FFFF}') }), { nil: undefined }),
});
const revenueRangeArb: fc.Arbitrary<RevenueRange> = fc.record({
  minScore: fc.oneof(fc.constantFrom(-1, 60, 61), fc.integer({ min: -1, max: 121 })),
  maxScore: fc.option(fc.oneof(fc.constantFrom(61, 91), fc.integer({ min: -1, max: 121 })), { nil: null }),
  state: fc.option(fc.constantFrom(...SUBSCRIBER_STATES), { nil: undefined, freq: 1 }),
  after: fc.option(fc.record({ monthly_value_usd: fc.constantFrom(-1, 0, 0.99, 9.99, 59.99, 100), customer_id: fc.constantFrom('', ...ids, '\u{10FFFF}') }), { nil: undefined }),
});
type Op =
  | { kind: 'set'; id: string; keys: { state: SubscriberState; score: number; valueCents: number; rescoreAt: number | null } }
  | { kind: 'page'; range: IndexRange; limit: number }
  | { kind: 'revenue'; range: RevenueRange; limit: number }
  | { kind: 'due'; now: number; limit: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), id: fc.constantFrom(...ids), keys: keysArb }),
  fc.record({ kind: fc.constant('page' as const), range: rangeArb, limit: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant('revenue' as const), range: revenueRangeArb, limit: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant('due' as const), now: fc.integer({ min: 0, max: 20 }), limit: fc.integer({ min: 0, max: 5 }) }),
);

const position = (r: IndexedRow) => ({ score: r.score, customer_id: r.id });
const revenuePosition = (r: IndexedRow) => ({ monthly_value_usd: r.valueCents / 100, customer_id: r.id });

describe('AtRiskIndex (property)', () => {
  it('pages and lists due rows exactly like filtering and sorting every row', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const index = new AtRiskIndex<IndexedRow>();
        const rows = new Map<string, IndexedRow>();
        for (const op of ops) {
          if (op.kind === 'set') {
            const row = rows.get(op.id);
            if (row === undefined) {
              const fresh = { id: op.id, key: codePointKey(op.id), ...op.keys };
              rows.set(op.id, fresh);
              index.add(fresh);
            } else index.update(row, op.keys);
          } else if (op.kind === 'page') {
            const { minScore, maxScore, state, after } = op.range;
            const matching = [...rows.values()]
              .filter((r) => r.score >= minScore && (maxScore === null || r.score < maxScore) && (state === undefined || r.state === state))
              .filter((r) => after === undefined || compareAtRisk(position(r), after) > 0)
              .sort((a, b) => compareAtRisk(position(a), position(b)));
            const page = index.page(op.range, op.limit);
            expect(page.rows.map((r) => r.id)).toEqual(matching.slice(0, op.limit).map((r) => r.id));
            expect(page.more).toBe(matching.length > op.limit);
          } else if (op.kind === 'revenue') {
            const { minScore, maxScore, state, after } = op.range;
            const inRange = [...rows.values()].filter(
              (r) => r.score >= minScore && (maxScore === null || r.score < maxScore) && (state === undefined || r.state === state),
            );
            const matching = inRange
              .filter((r) => after === undefined || compareRevenue(revenuePosition(r), after) > 0)
              .sort((a, b) => compareRevenue(revenuePosition(a), revenuePosition(b)));
            const page = index.revenuePage(op.range, op.limit);
            expect(page.rows.map((r) => r.id)).toEqual(matching.slice(0, op.limit).map((r) => r.id));
            expect(page.more).toBe(matching.length > op.limit);
            expect(index.total(op.range)).toEqual({
              subscribers: inRange.length,
              monthly_value_usd: inRange.reduce((sum, r) => sum + r.valueCents, 0) / 100,
            });
          } else {
            // Taking due rows: the earliest ones (ties in any order), then re-materialized as the store does.
            const dueTimes = [...rows.values()].filter((r) => r.rescoreAt !== null && r.rescoreAt <= op.now).map((r) => r.rescoreAt!).sort((a, b) => a - b);
            const before = new Map([...rows.values()].map((r) => [r.id, r.rescoreAt]));
            const taken = index.takeDue(op.now, op.limit);
            expect(new Set(taken).size).toBe(taken.length);
            expect(taken.map((r) => before.get(r.id))).toEqual(dueTimes.slice(0, op.limit));
            for (const [i, row] of taken.entries()) {
              expect(row.rescoreAt).toBeNull();
              index.update(row, { state: row.state, score: row.score, valueCents: row.valueCents, rescoreAt: i % 3 === 0 ? null : op.now + 1 + i });
            }
          }
        }
        expect(index.size).toBe(rows.size);
        // A rebuild from scratch answers the same.
        const rebuilt = new AtRiskIndex<IndexedRow>();
        rebuilt.rebuild([...rows.values()]);
        expect(rebuilt.page({ minScore: -1, maxScore: null }, 100).rows).toEqual(index.page({ minScore: -1, maxScore: null }, 100).rows);
        expect(rebuilt.revenuePage({ minScore: -1, maxScore: null }, 100).rows).toEqual(index.revenuePage({ minScore: -1, maxScore: null }, 100).rows);
        expect(rebuilt.total({ minScore: -1, maxScore: null })).toEqual(index.total({ minScore: -1, maxScore: null }));
        const dueIds = (ix: AtRiskIndex<IndexedRow>) => ix.takeDue(1000, 100).map((r) => r.id).sort();
        const expectedDue = [...rows.values()].filter((r) => r.rescoreAt !== null).map((r) => r.id).sort();
        expect(dueIds(rebuilt)).toEqual(expectedDue);
        // takeDue nulled the rows' times: the original index, sharing them, now has none due.
        expect(index.takeDue(1000, 100)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
