/**
 * An ordered collection for the memory store's indexes: a list of sorted chunks of at most
 * `MAX_CHUNK` items. Finding a position is two binary searches (over chunks, then within one);
 * inserting or deleting moves at most one chunk's items. At a million items that is 2 000–4 000 chunks,
 * so a seek costs ~20 comparisons and an update a memmove of ≤ 512 pointers: a B-tree's costs with
 * plain arrays, and no per-item node objects.
 */

/** Items per chunk at most; a full chunk splits in two halves. */
export const MAX_CHUNK = 512;

/** Where an item sits: chunk index and index within the chunk. */
interface Position {
  chunk: number;
  index: number;
}

/**
 * A sorted set: `compare` must be a total order in which two distinct items never compare equal
 * (index keys end with a unique id). `maxChunk` is only lowered by tests, to split and merge often.
 */
export class SortedChunkList<T> {
  private chunks: T[][] = [];
  private count = 0;

  constructor(
    private readonly compare: (a: T, b: T) => number,
    private readonly maxChunk = MAX_CHUNK,
  ) {}

  /**
   * Given items already sorted by `compare` (distinct), returns a list holding them, built in O(n).
   *
   * @example
   * const list = SortedChunkList.fromSorted([1, 2, 3], (a, b) => a - b);
   */
  static fromSorted<T>(items: readonly T[], compare: (a: T, b: T) => number, maxChunk = MAX_CHUNK): SortedChunkList<T> {
    const list = new SortedChunkList(compare, maxChunk);
    const half = Math.max(1, maxChunk >> 1);
    for (let i = 0; i < items.length; i += half) list.chunks.push(items.slice(i, i + half));
    list.count = items.length;
    return list;
  }

  get size(): number {
    return this.count;
  }

  /** The first item, or undefined when empty. */
  first(): T | undefined {
    return this.chunks[0]?.[0];
  }

  /** Adds `item` at its place. */
  insert(item: T): void {
    const chunks = this.chunks;
    if (chunks.length === 0) {
      chunks.push([item]);
      this.count = 1;
      return;
    }
    // The first chunk whose last item is after `item`, else the last chunk.
    let c = this.chunkAtOrAfter((x) => this.compare(x, item) > 0);
    if (c === chunks.length) c--;
    const chunk = chunks[c]!;
    chunk.splice(this.indexIn(chunk, (x) => this.compare(x, item) > 0), 0, item);
    this.count++;
    if (chunk.length > this.maxChunk) chunks.splice(c + 1, 0, chunk.splice(chunk.length >> 1));
  }

  /** Removes the item comparing equal to `item`; returns whether there was one. */
  delete(item: T): boolean {
    const at = this.find((x) => this.compare(x, item) >= 0);
    if (at === null) return false;
    const chunk = this.chunks[at.chunk]!;
    if (this.compare(chunk[at.index]!, item) !== 0) return false;
    chunk.splice(at.index, 1);
    this.count--;
    this.rebalance(at.chunk);
    return true;
  }

  /**
   * Given a predicate that is false for a prefix of the list and true for the rest (a lower bound
   * such as "after this key"), yields the items from the first for which it holds, in order.
   * The list must not change while the iteration is in use.
   *
   * @example
   * for (const x of list.from((x) => x > 10)) ...
   */
  *from(startsAt: (item: T) => boolean): Generator<T, void, undefined> {
    const at = this.find(startsAt);
    if (at === null) return;
    for (let c = at.chunk, i = at.index; c < this.chunks.length; c++, i = 0) {
      const chunk = this.chunks[c]!;
      for (; i < chunk.length; i++) yield chunk[i]!;
    }
  }

  /** Every item, in order. */
  *[Symbol.iterator](): Generator<T, void, undefined> {
    for (const chunk of this.chunks) yield* chunk;
  }

  /** Length of each chunk, for tests of the shape invariants (none empty, none over `maxChunk`). */
  chunkLengths(): number[] {
    return this.chunks.map((c) => c.length);
  }

  /** The position of the first item for which the monotone predicate holds, or null if none. */
  private find(startsAt: (item: T) => boolean): Position | null {
    const c = this.chunkAtOrAfter(startsAt);
    if (c === this.chunks.length) return null;
    return { chunk: c, index: this.indexIn(this.chunks[c]!, startsAt) };
  }

  /** The first chunk whose last item satisfies the predicate (chunks.length if none). */
  private chunkAtOrAfter(startsAt: (item: T) => boolean): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid]!;
      if (startsAt(chunk[chunk.length - 1]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The first index of `chunk` whose item satisfies the predicate (chunk.length if none). */
  private indexIn(chunk: readonly T[], startsAt: (item: T) => boolean): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (startsAt(chunk[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Drops an empty chunk; merges a small one into a neighbour when both fit in one chunk. */
  private rebalance(c: number): void {
    const chunks = this.chunks;
    const chunk = chunks[c]!;
    if (chunk.length === 0) {
      chunks.splice(c, 1);
      return;
    }
    // A chunk under a quarter full merges into a neighbour when both fit in half a chunk, so
    // deletions cannot leave many tiny chunks behind.
    const half = this.maxChunk >> 1;
    if (chunk.length >= this.maxChunk >> 2) return;
    const next = chunks[c + 1];
    if (next !== undefined && chunk.length + next.length <= half) {
      chunks[c] = chunk.concat(next);
      chunks.splice(c + 1, 1);
      return;
    }
    const prev = chunks[c - 1];
    if (prev !== undefined && chunk.length + prev.length <= half) {
      chunks[c - 1] = prev.concat(chunk);
      chunks.splice(c, 1);
    }
  }
}
