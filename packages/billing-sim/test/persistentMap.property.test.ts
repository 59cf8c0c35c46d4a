// The persistent map behind the world, against a plain Map model: same contents after any sequence
// of sets and removes, and every earlier version unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyPMap, pmapForEach, pmapGet, pmapRemove, pmapSet, pmapSetAll, pmapValues, type PMap } from '../src/machine/persistentMap.js';

// 'k32728' and 'k261234' have the same 32-bit hash: they share a bucket at the bottom of the trie.
const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', '', 'k32728', 'k261234'), fc.string({ maxLength: 6 }), fc.nat(5000).map((n) => `user_${n}`));
type Op = { kind: 'set'; key: string; value: number } | { kind: 'remove'; key: string } | { kind: 'setAll'; entries: [string, number][] };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('remove' as const), key }),
  fc.record({ kind: fc.constant('setAll' as const), entries: fc.array(fc.tuple(key, fc.integer()), { maxLength: 40 }) }),
);

const contents = (m: PMap<number>) => {
  const out = new Map<string, number>();
  pmapForEach(m, (v, k) => out.set(k, v));
  return out;
};

describe('persistent map', () => {
  it('holds what a Map holds after any sets and removes, and never changes an earlier version', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        let map = emptyPMap<number>();
        const model = new Map<string, number>();
        const versions: { map: PMap<number>; snapshot: Map<string, number> }[] = [];
        for (const o of ops) {
          if (o.kind === 'set') {
            map = pmapSet(map, o.key, o.value);
            model.set(o.key, o.value);
          } else if (o.kind === 'remove') {
            map = pmapRemove(map, o.key);
            model.delete(o.key);
          } else {
            // As entries, or as a Map (walked with its forEach).
            map = pmapSetAll(map, o.entries.length % 2 === 0 ? o.entries : new Map(o.entries));
            for (const [k, v] of o.entries) model.set(k, v);
          }
          versions.push({ map, snapshot: new Map(model) });
        }
        expect(map.size).toBe(model.size);
        expect(contents(map)).toEqual(model);
        expect(pmapValues(map).length).toBe(model.size);
        for (const [k, v] of model) expect(pmapGet(map, k)).toBe(v);
        for (const { map: old, snapshot } of versions) expect(contents(old)).toEqual(snapshot);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps 50,000 keys (deep tries) readable', () => {
    const entries = Array.from({ length: 50_000 }, (_, i) => [`c${i}`, i] as [string, number]);
    const map = pmapSetAll(emptyPMap<number>(), entries);
    expect(map.size).toBe(50_000);
    expect(pmapGet(map, 'c49999')).toBe(49_999);
    const fewer = entries.slice(0, 25_000).reduce((m, [k]) => pmapRemove(m, k), map);
    expect(fewer.size).toBe(25_000);
    expect(pmapGet(fewer, 'c0')).toBeUndefined();
    expect(pmapGet(map, 'c0')).toBe(0);
  });
});
