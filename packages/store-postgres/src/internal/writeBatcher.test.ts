import { describe, expect, it } from 'vitest';
import { WriteBatcher } from './writeBatcher.js';

/** A batcher whose runs wait until released, recording every batch it was given. */
function gatedBatcher(maxBatch: number, maxInFlight: number) {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const batcher = new WriteBatcher<number, string>({
    run: async (items) => {
      batches.push(items);
      await new Promise<void>((resolve) => gates.push(resolve));
      if (items.includes(-1)) throw new Error('boom');
      return items.map((i) => `r${i}`);
    },
    key: (item) => (item >= 100 ? 'other' : 'same'),
    maxBatch,
    maxInFlight,
  });
  const releaseAll = async () => {
    while (gates.length > 0) {
      gates.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { batcher, batches, releaseAll };
}

describe('WriteBatcher', () => {
  it('starts the first item at once and gathers the rest while it runs', async () => {
    const { batcher, batches, releaseAll } = gatedBatcher(500, 1);
    const results = [1, 2, 3, 4].map((i) => batcher.submit(i));
    expect(batches).toEqual([[1]]);
    await releaseAll();
    expect(await Promise.all(results)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('caps batches at maxBatch and runs at most maxInFlight at once', async () => {
    const { batcher, batches, releaseAll } = gatedBatcher(2, 2);
    const results = [1, 2, 3, 4, 5, 6].map((i) => batcher.submit(i));
    expect(batches).toEqual([[1], [2]]);
    await releaseAll();
    await Promise.all(results);
    expect(batches.flat()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Math.max(...batches.map((b) => b.length))).toBe(2);
  });

  it('never mixes items of different keys in one batch', async () => {
    const { batcher, batches, releaseAll } = gatedBatcher(500, 1);
    const results = [1, 2, 100, 101, 3].map((i) => batcher.submit(i));
    await releaseAll();
    await Promise.all(results);
    expect(batches).toEqual([[1], [2], [100, 101], [3]]);
  });

  it('rejects every item of a failed batch and goes on with the next', async () => {
    const { batcher, releaseAll } = gatedBatcher(500, 1);
    const first = batcher.submit(0);
    const failed = [batcher.submit(-1), batcher.submit(5)];
    const settled = Promise.allSettled(failed);
    await releaseAll();
    expect(await first).toBe('r0');
    expect((await settled).map((s) => s.status)).toEqual(['rejected', 'rejected']);
    const after = batcher.submit(7);
    await releaseAll();
    expect(await after).toBe('r7');
  });

  it('is drained once every submitted item has settled', async () => {
    const { batcher, releaseAll } = gatedBatcher(500, 1);
    let drained = false;
    const items = [1, 2, 3].map((i) => batcher.submit(i));
    const waiting = batcher.drained().then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    await releaseAll();
    await waiting;
    await Promise.all(items);
    expect(drained).toBe(true);
    await batcher.drained();
  });
});
