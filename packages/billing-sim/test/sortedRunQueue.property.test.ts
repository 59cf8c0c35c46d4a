// The job queue of a clock advance: a sorted run handed out by index plus a heap of later pushes
// must pop exactly what one min-heap of everything would pop.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSortedRunQueue } from '../src/internal/minHeap.js';

const byValue = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

describe('createSortedRunQueue', () => {
  it('pops the smallest item present, for any sorted run and any interleaving of pushes and pops', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 })),
        fc.array(fc.oneof(fc.record({ push: fc.integer({ min: 0, max: 50 }) }), fc.constant({ pop: true as const }))),
        (initial, ops) => {
          let tag = 0;
          const run = initial.map((v) => [v, tag++] as [number, number]).sort(byValue);
          const queue = createSortedRunQueue(byValue, run);
          const model = [...run];
          for (const op of ops) {
            if ('push' in op) {
              const item: [number, number] = [op.push, tag++];
              queue.push(item);
              model.push(item);
              model.sort(byValue);
            } else {
              expect(queue.peek()).toEqual(model[0]);
              expect(queue.pop()).toEqual(model.shift());
            }
            expect(queue.size).toBe(model.length);
          }
          while (model.length > 0) expect(queue.pop()).toEqual(model.shift());
          expect(queue.pop()).toBeUndefined();
        },
      ),
    );
  });
});
