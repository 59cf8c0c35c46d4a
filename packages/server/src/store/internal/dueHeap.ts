/**
 * The memory store's queue of rows by `rescore_at`: a binary min-heap of (time, row) with lazy
 * deletion. A row that gets a new `rescore_at` is pushed again and its old node goes stale (its time
 * no longer matches the row's); stale nodes are skipped when popped and dropped when they outnumber
 * live ones. Pushing is O(1) on average and touches only a contiguous array of times, which is why
 * this beats an ordered index here: every applied event moves its row's `rescore_at`.
 */

/** What the heap needs of a row: its current `rescore_at` (null: not due at any time). */
export interface DueRow {
  rescoreAt: number | null;
}

/** A min-heap of rows by `rescoreAt`, with lazy deletion. */
export class DueHeap<R extends DueRow> {
  private times = new Float64Array(1024);
  private rows: R[] = [];

  /** Nodes held, stale ones included. */
  get size(): number {
    return this.rows.length;
  }

  /** Queues `row` at its current `rescoreAt` (ignored when null). */
  push(row: R): void {
    const time = row.rescoreAt;
    if (time === null) return;
    let i = this.rows.length;
    if (i === this.times.length) {
      const grown = new Float64Array(i * 2);
      grown.set(this.times);
      this.times = grown;
    }
    this.rows.push(row);
    // Sift up.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.times[parent]! <= time) break;
      this.times[i] = this.times[parent]!;
      this.rows[i] = this.rows[parent]!;
      i = parent;
    }
    this.times[i] = time;
    this.rows[i] = row;
  }

  /**
   * Removes and returns up to `limit` distinct rows whose current `rescoreAt` is at or before `now`,
   * earliest first, setting each one's `rescoreAt` to null (no longer queued: the caller
   * re-materializes it, which queues it again at its new time).
   */
  popDue(now: number, limit: number): R[] {
    const due: R[] = [];
    while (due.length < limit && this.rows.length > 0 && this.times[0]! <= now) {
      const time = this.times[0]!;
      const row = this.popTop();
      if (row.rescoreAt !== time) continue; // stale: the row moved since this node was pushed
      row.rescoreAt = null;
      due.push(row);
    }
    return due;
  }

  /**
   * Drops stale nodes once they outnumber the `live` queued rows (and the heap is not tiny): O(n),
   * amortized over the pushes that made them. In place: the live nodes are packed to the front of
   * the same arrays and heapified bottom-up (no new arrays, no push per node).
   *
   * A row whose `rescore_at` moved away and back (X, Y, X) has two nodes that both match it: only
   * the first is kept, so that after a compaction the heap holds at most one node per queued row.
   * Keeping both broke the amortization: the survivors alone passed the threshold, and the heap was
   * compacted again a few pushes later (measured under the ingest bench: every ~10 pushes, 2.4
   * nodes kept per live row, 15 % of a webhook's CPU).
   */
  compactIfSparse(live: number): void {
    if (this.rows.length < 1024 || this.rows.length < 2 * live) return;
    const { rows, times } = this;
    const kept = new Set<R>();
    let n = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (row.rescoreAt !== times[i] || kept.has(row)) continue; // stale, or a second node of the row at the same time
      kept.add(row);
      rows[n] = row;
      times[n] = times[i]!;
      n++;
    }
    rows.length = n;
    this.heapify();
  }

  /** Replaces the content with `rows` (each at its current `rescoreAt`; null ones are left out). */
  reset(rows: Iterable<R>): void {
    const kept: R[] = [];
    for (const row of rows) if (row.rescoreAt !== null) kept.push(row);
    let capacity = 1024;
    while (capacity < kept.length) capacity *= 2;
    this.times = new Float64Array(capacity);
    for (let i = 0; i < kept.length; i++) this.times[i] = kept[i]!.rescoreAt!;
    this.rows = kept;
    this.heapify();
  }

  /** Makes the first `rows.length` nodes a heap, sifting each parent down from the last one up: O(n). */
  private heapify(): void {
    for (let i = (this.rows.length >> 1) - 1; i >= 0; i--) this.siftDown(i, this.rows[i]!, this.times[i]!);
  }

  /** Places `row` at `time` into the subtree rooted at `i` (whose own node is free), moving smaller children up. */
  private siftDown(start: number, row: R, time: number): void {
    const n = this.rows.length;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.times[right]! < this.times[left]! ? right : left;
      if (this.times[child]! >= time) break;
      this.times[i] = this.times[child]!;
      this.rows[i] = this.rows[child]!;
      i = child;
    }
    this.times[i] = time;
    this.rows[i] = row;
  }

  private popTop(): R {
    const top = this.rows[0]!;
    const lastRow = this.rows.pop()!;
    const n = this.rows.length;
    if (n === 0) return top;
    // Sift the last node down from the root.
    this.siftDown(0, lastRow, this.times[n]!);
    return top;
  }
}
