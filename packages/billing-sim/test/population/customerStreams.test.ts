// A generated customer's random streams (customerStreams.ts): sfc32 as its authors wrote it, the
// same stream for the same seed, index and tag, and no two customers' streams running into each
// other, which 32-bit streams seeded by a hash of `seed:index` did (ids repeated across customers).
import { describe, expect, it } from 'vitest';
import { customerStream, sfc32 } from '../../src/population/customerStreams.js';

const word = (r: () => number): number => r() * 4294967296;

describe('sfc32', () => {
  it('draws the reference implementation words', () => {
    // From the C reference (uint32 t = a + b + counter++; ...) started at 1, 2, 3, 4.
    const r = sfc32(1, 2, 3, 4);
    expect(Array.from({ length: 5 }, () => word(r))).toEqual([7, 34, 56623200, 188882296, 3431242869]);
  });
});

describe('customerStream', () => {
  it('is the same for the same seed, index and tag, and another for any other', () => {
    const first = (seed: string, index: number, tag: 'model' | 'ids') => {
      const r = customerStream(seed, index, tag);
      return Array.from({ length: 8 }, () => word(r));
    };
    const base = first('s', 7, 'ids');
    expect(first('s', 7, 'ids')).toEqual(base);
    for (const other of [first('s', 8, 'ids'), first('s', 7, 'model'), first('t', 7, 'ids')]) expect(other).not.toEqual(base);
  });

  it('never repeats a pair of consecutive words across 20,000 customers (64 words each, both tags)', () => {
    // With 32-bit streams about six windows of 20,000 customers overlap; with 128 bits of state none.
    // A pair is keyed by 53 of its 64 bits (exact in a number): a repeat of those is a repeat too.
    const seen = new Map<number, string>();
    const repeats: string[] = [];
    for (const tag of ['model', 'ids'] as const) {
      for (let index = 0; index < 20_000; index += 1) {
        const r = customerStream('bench', index, tag);
        const owner = `${tag} ${index}`;
        let previous = word(r);
        for (let k = 1; k < 64; k += 1) {
          const w = word(r);
          const key = (previous % 2 ** 21) * 2 ** 32 + w;
          const before = seen.get(key);
          if (before !== undefined && before !== owner) repeats.push(`${before} and ${owner}`);
          seen.set(key, owner);
          previous = w;
        }
      }
    }
    expect(repeats).toEqual([]);
  });
});
