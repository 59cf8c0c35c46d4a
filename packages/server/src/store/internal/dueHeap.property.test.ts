// DueHeap against a plain scan of the rows: after any pushes, moves (lazy deletion) and compactions,
// popping due rows returns the earliest current ones, each once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DueHeap } from './dueHeap.js';

interface Row {
  id: number;
  rescoreAt: number | null;
}

type Op = { kind: 'move'; row: number; time: number | null } | { kind: 'pop'; now: number; limit: number };

const opArb = (rows: number): fc.Arbitrary<Op> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('move' as const), row: fc.nat(rows - 1), time: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null, freq: 8 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('pop' as const), now: fc.integer({ min: 0, max: 500 }), limit: fc.integer({ min: 1, max: 50 }) }) },
  );

describe('DueHeap (property)', () => {
  it('pops the earliest current rows due, each once, whatever moved and however often it compacted', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((rows) => fc.tuple(fc.constant(rows), fc.array(opArb(rows), { maxLength: 3000 }))),
        ([count, ops]) => {
          const rows: Row[] = Array.from({ length: count }, (_, id) => ({ id, rescoreAt: null }));
          const heap = new DueHeap<Row>();
          for (const op of ops) {
            if (op.kind === 'move') {
              const row = rows[op.row]!;
              if (row.rescoreAt === op.time) continue; // unchanged: the store pushes only on a change
              row.rescoreAt = op.time;
              heap.push(row);
              heap.compactIfSparse(rows.filter((r) => r.rescoreAt !== null).length);
            } else {
              const expected = rows.filter((r) => r.rescoreAt !== null && r.rescoreAt <= op.now).map((r) => r.rescoreAt!).sort((a, b) => a - b).slice(0, op.limit);
              const before = new Map(rows.map((r) => [r, r.rescoreAt]));
              const popped = heap.popDue(op.now, op.limit);
              expect(new Set(popped).size).toBe(popped.length);
              expect(popped.map((r) => before.get(r))).toEqual(expected);
              for (const r of popped) expect(r.rescoreAt).toBeNull();
            }
          }
          // Stale nodes never outnumber live ones by more than the compaction threshold allows.
          const live = rows.filter((r) => r.rescoreAt !== null).length;
          expect(heap.size).toBeLessThanOrEqual(Math.max(1024, 2 * live) + 1);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('after a compaction (stale nodes dropped in place) and a reset, pops every current row in time order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1100, maxLength: 1600 }),
        fc.array(fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null, freq: 4 }), { minLength: 1100, maxLength: 1600 }),
        (first, moves) => {
          const rows: Row[] = first.map((time, id) => ({ id, rescoreAt: time }));
          const heap = new DueHeap<Row>();
          for (const row of rows) heap.push(row);
          // Move most rows (their first nodes go stale), then compact once the stale outnumber the live.
          moves.forEach((time, i) => {
            const row = rows[i % rows.length]!;
            if (row.rescoreAt === time) return;
            row.rescoreAt = time;
            heap.push(row);
          });
          const live = rows.filter((r) => r.rescoreAt !== null);
          heap.compactIfSparse(live.length);
          if (heap.size >= 1024 && heap.size >= 2 * live.length) throw new Error('did not compact');
          const copy = new DueHeap<Row>();
          copy.reset(rows);
          const expected = live.map((r) => r.rescoreAt!).sort((a, b) => a - b);
          const before = new Map(rows.map((r) => [r, r.rescoreAt]));
          expect(heap.popDue(Number.POSITIVE_INFINITY, rows.length).map((r) => before.get(r))).toEqual(expected);
          for (const r of rows) r.rescoreAt = before.get(r)!;
          expect(copy.popDue(Number.POSITIVE_INFINITY, rows.length).map((r) => before.get(r))).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps one node per queued row through a compaction, so rows moving back and forth do not make it compact again and again', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 520, max: 1500 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 3 })), { minLength: 2000, maxLength: 6000 }),
        (count, moves) => {
          // Few distinct times: a row's rescore_at keeps coming back to one it had (X, Y, X).
          const rows: Row[] = Array.from({ length: count }, (_, id) => ({ id, rescoreAt: id % 4 }));
          const heap = new DueHeap<Row>();
          for (const row of rows) heap.push(row);
          let pushesSince = 0;
          for (const [pick, time] of moves) {
            const row = rows[pick % count]!;
            if (row.rescoreAt === time) continue;
            row.rescoreAt = time;
            const before = heap.size + 1;
            heap.push(row);
            pushesSince += 1;
            heap.compactIfSparse(count);
            if (heap.size < before) {
              // Compacted: at most one node per row, and only after as many pushes as there are rows.
              expect(heap.size).toBeLessThanOrEqual(count);
              expect(pushesSince).toBeGreaterThanOrEqual(Math.max(1024, 2 * count) - count);
              pushesSince = 0;
            }
          }
          const expected = rows.map((r) => r.rescoreAt!).sort((a, b) => a - b);
          const before = new Map(rows.map((r) => [r, r.rescoreAt]));
          const popped = heap.popDue(Number.POSITIVE_INFINITY, count);
          expect(new Set(popped).size).toBe(count);
          expect(popped.map((r) => before.get(r))).toEqual(expected);
        },
      ),
      { numRuns: 30 },
    );
  });
});
