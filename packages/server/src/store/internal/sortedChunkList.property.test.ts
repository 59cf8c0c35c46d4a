// SortedChunkList against a plain sorted array, over arbitrary inserts, deletes and seeks, with
// small chunks so that splits and merges happen all the time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedChunkList } from './sortedChunkList.js';

type Op = { kind: 'insert' | 'delete'; key: number } | { kind: 'seek'; key: number };

const opArb: fc.Arbitrary<Op> = fc.record({ kind: fc.constantFrom('insert', 'insert', 'delete', 'seek'), key: fc.integer({ min: 0, max: 200 }) });

describe('SortedChunkList (property)', () => {
  it('holds exactly the sorted distinct keys of a plain array after any operations', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), fc.constantFrom(2, 4, 8, 16), (ops, maxChunk) => {
        const list = new SortedChunkList((a: number, b: number) => a - b, maxChunk);
        let reference: number[] = [];
        for (const op of ops) {
          if (op.kind === 'insert') {
            if (reference.includes(op.key)) continue; // a set: callers never insert a key twice
            list.insert(op.key);
            reference = [...reference, op.key].sort((a, b) => a - b);
          } else if (op.kind === 'delete') {
            expect(list.delete(op.key)).toBe(reference.includes(op.key));
            reference = reference.filter((x) => x !== op.key);
          } else {
            expect([...list.from((x) => x >= op.key)]).toEqual(reference.filter((x) => x >= op.key));
          }
        }
        expect([...list]).toEqual(reference);
        expect(list.size).toBe(reference.length);
        expect(list.first()).toBe(reference[0]);
        for (const length of list.chunkLengths()) {
          expect(length).toBeGreaterThan(0);
          expect(length).toBeLessThanOrEqual(maxChunk);
        }
      }),
    );
  });

  it('builds from sorted items the same list as inserting them one by one', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { maxLength: 300 }), fc.constantFrom(2, 8, 512), (keys, maxChunk) => {
        const sorted = [...keys].sort((a, b) => a - b);
        const built = SortedChunkList.fromSorted(sorted, (a, b) => a - b, maxChunk);
        expect([...built]).toEqual(sorted);
        expect(built.size).toBe(sorted.length);
        const extra = 0.5; // between integers: never present
        built.insert(extra);
        expect([...built]).toEqual([...sorted, extra].sort((a, b) => a - b));
      }),
    );
  });
});
