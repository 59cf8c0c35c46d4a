import { describe, expect, it } from 'vitest';
import { MAX_CHUNK, SortedChunkList } from './sortedChunkList.js';

const asc = (a: number, b: number) => a - b;

describe('SortedChunkList', () => {
  it('keeps items in order whatever the insertion order', () => {
    const list = new SortedChunkList(asc, 4);
    for (const x of [5, 1, 9, 3, 7, 2, 8, 4, 6, 0]) list.insert(x);
    expect([...list]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(list.size).toBe(10);
    expect(list.first()).toBe(0);
    expect(Math.max(...list.chunkLengths())).toBeLessThanOrEqual(4);
  });

  it('deletes the item comparing equal and answers false for a missing one', () => {
    const list = SortedChunkList.fromSorted([1, 2, 3, 4, 5], asc, 4);
    expect(list.delete(3)).toBe(true);
    expect(list.delete(3)).toBe(false);
    expect(list.delete(42)).toBe(false);
    expect([...list]).toEqual([1, 2, 4, 5]);
    expect(list.size).toBe(4);
  });

  it('drops emptied chunks, so an emptied list has no first item', () => {
    const list = SortedChunkList.fromSorted([1, 2, 3, 4, 5, 6, 7, 8], asc, 4);
    for (let x = 1; x <= 8; x++) list.delete(x);
    expect(list.first()).toBeUndefined();
    expect(list.chunkLengths()).toEqual([]);
    expect([...list.from(() => true)]).toEqual([]);
  });

  it('iterates from the first item satisfying a monotone predicate, across chunks', () => {
    const list = SortedChunkList.fromSorted([10, 20, 30, 40, 50, 60, 70], asc, 4);
    expect([...list.from((x) => x > 25)]).toEqual([30, 40, 50, 60, 70]);
    expect([...list.from((x) => x >= 70)]).toEqual([70]);
    expect([...list.from((x) => x > 70)]).toEqual([]);
    expect([...list.from(() => true)]).toEqual([10, 20, 30, 40, 50, 60, 70]);
  });

  it('uses 512-item chunks by default', () => {
    const list = new SortedChunkList(asc);
    for (let i = 0; i < 2000; i++) list.insert((i * 7919) % 2000);
    expect(Math.max(...list.chunkLengths())).toBeLessThanOrEqual(MAX_CHUNK);
    expect([...list]).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });
});
