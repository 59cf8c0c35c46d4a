// The persistent vector behind the world's customers, against a plain Map model: same contents
// after any batches of sets and clears (sorted or not, repeated indices, growing past its depth),
// iteration in index order, and every earlier version unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyPVec, pvecForEach, pvecGet, pvecSetAll, type PVec } from '../src/machine/persistentVector.js';

const contents = (v: PVec<number>) => {
  const out: [number, number][] = [];
  pvecForEach(v, (value, index) => out.push([index, value]));
  return out;
};
const modelContents = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]);

const index = fc.oneof(fc.nat(40), fc.nat(5000), fc.constantFrom(0, 31, 32, 1023, 1024, 32767, 32768, 2 ** 31 - 1));
const batch = fc.array(fc.tuple(index, fc.option(fc.integer(), { nil: undefined })), { maxLength: 50 });

describe('persistent vector', () => {
  it('holds what a Map holds after any batches, in index order, and never changes an earlier version', () => {
    fc.assert(
      fc.property(fc.array(batch, { maxLength: 12 }), (batches) => {
        let vec = emptyPVec<number>();
        const model = new Map<number, number>();
        const versions: { vec: PVec<number>; snapshot: [number, number][] }[] = [];
        for (const entries of batches) {
          vec = pvecSetAll(vec, entries.map((e) => e[0]), entries.map((e) => e[1]));
          for (const [i, v] of entries) {
            if (v === undefined) model.delete(i);
            else model.set(i, v);
          }
          versions.push({ vec, snapshot: modelContents(model) });
        }
        expect(contents(vec)).toEqual(modelContents(model));
        for (const [i, v] of model) expect(pvecGet(vec, i)).toBe(v);
        for (const { vec: old, snapshot } of versions) expect(contents(old)).toEqual(snapshot);
      }),
      { numRuns: 200 },
    );
  });

  it('sets 100,000 values in one batch, in any order, the later of a repeated index winning', () => {
    const n = 100_000;
    const indices = Array.from({ length: n }, (_, k) => (k * 7919) % n);
    const base = pvecSetAll(emptyPVec<number>(), indices, indices);
    const again = pvecSetAll(base, [...indices, 5, 5], [...indices.map((i) => -i), 1, 2]);
    expect(pvecGet(base, 99_999)).toBe(99_999);
    expect(pvecGet(again, 99_999)).toBe(-99_999);
    expect(pvecGet(again, 5)).toBe(2);
    expect(pvecGet(again, n)).toBeUndefined();
    expect(pvecGet(again, -1)).toBeUndefined();
    expect(() => pvecSetAll(base, [1.5], [1])).toThrow(RangeError);
  });
});
