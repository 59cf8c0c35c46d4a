/**
 * The memory store's at-risk indexes over its rows: one ordered list per state by (score
 * descending, customer id in code point order), so a page is a seek plus `limit` steps (a page over
 * every state merges the lists' heads); the revenue cells (`revenueCells.ts`); and a heap of rows by
 * `rescore_at` for the rows that come due. A row's key fields are only changed through `update`,
 * which moves the row in exactly the indexes whose key changed.
 */
import { SUBSCRIBER_STATES, type AtRiskPosition, type AtRiskTotal, type SubscriberState } from '@tenure/core';
import { codePointKey, compareKeys } from './codePointKey.js';
import { DueHeap } from './dueHeap.js';
import { RevenueCells, type CellRange, type RevenueRange } from './revenueCells.js';
import { SortedChunkList } from './sortedChunkList.js';

/** The keys a row is indexed by. */
export interface IndexedRow {
  readonly id: string;
  /** `codePointKey(id)`: compared natively, it orders rows by id in code point order. */
  readonly key: string;
  state: SubscriberState;
  score: number;
  /** The monthly value in whole cents (`monthly_value_usd × 100`). */
  valueCents: number;
  /** When the row must be materialized again; null: not until the subscriber changes. */
  rescoreAt: number | null;
}

/** The new keys of a row. */
export interface RowKeys {
  state: SubscriberState;
  score: number;
  valueCents: number;
  rescoreAt: number | null;
}

/** Which rows a page wants: `minScore <= score < maxScore` (null: no upper bound), optionally one state, strictly after a position. */
export interface IndexRange {
  minScore: number;
  maxScore: number | null;
  state?: SubscriberState | undefined;
  after?: AtRiskPosition | undefined;
}

/** Like `IndexRange`, for the revenue order. */

const byRisk = (a: IndexedRow, b: IndexedRow): number => b.score - a.score || compareKeys(a.key, b.key);

/** The at-risk and due indexes of one store. */
export class AtRiskIndex<R extends IndexedRow> {
  private byState = AtRiskIndex.emptyLists<R>(byRisk);
  /** The (state, score) cells in revenue order, with their value sums. */
  private cells = new RevenueCells<R>();
  private due = new DueHeap<R>();
  private rows = 0;
  /** Rows with a non-null `rescoreAt` (the heap's live nodes). */
  private queued = 0;

  /** Rows indexed. */
  get size(): number {
    return this.rows;
  }

  /** Indexes a row not indexed yet. */
  add(row: R): void {
    this.byState[row.state].insert(row);
    this.cells.enter(row);
    this.rows++;
    if (row.rescoreAt !== null) {
      this.queued++;
      this.due.push(row);
    }
  }

  /** Sets a row's keys, moving it in the indexes whose key changed. */
  update(row: R, keys: RowKeys): void {
    if (keys.score !== row.score || keys.state !== row.state || keys.valueCents !== row.valueCents) {
      const movesRisk = keys.score !== row.score || keys.state !== row.state;
      this.cells.leave(row);
      if (movesRisk) this.byState[row.state].delete(row);
      row.score = keys.score;
      row.state = keys.state;
      row.valueCents = keys.valueCents;
      if (movesRisk) this.byState[row.state].insert(row);
      this.cells.enter(row);
    }
    if (keys.rescoreAt !== row.rescoreAt) {
      // The old heap node goes stale by itself: its time no longer matches the row's.
      this.queued += (keys.rescoreAt !== null ? 1 : 0) - (row.rescoreAt !== null ? 1 : 0);
      row.rescoreAt = keys.rescoreAt;
      this.due.push(row);
      this.due.compactIfSparse(this.queued);
    }
  }

  /** Removes an indexed row from every index (its heap node goes stale by itself). */
  remove(row: R): void {
    this.byState[row.state].delete(row);
    this.cells.leave(row);
    this.rows--;
    if (row.rescoreAt !== null) {
      this.queued--;
      row.rescoreAt = null;
      this.due.compactIfSparse(this.queued);
    }
  }

  /** Replaces every index with the given rows (after re-materializing them all), in O(n log n). */
  rebuild(rows: readonly R[]): void {
    this.byState = AtRiskIndex.emptyLists<R>(byRisk);
    for (const state of SUBSCRIBER_STATES) {
      this.byState[state] = SortedChunkList.fromSorted(
        rows.filter((r) => r.state === state).sort(byRisk),
        byRisk,
      );
    }
    this.cells.rebuild(rows);
    this.rows = rows.length;
    this.queued = rows.filter((r) => r.rescoreAt !== null).length;
    this.due.reset(rows);
  }

  /**
   * Given a range and a limit, returns the first `limit` rows of the range in at-risk order and
   * whether more rows follow: a seek in the state's list (or in each, merging their heads), then
   * one step per row.
   */
  page(range: IndexRange, limit: number): { rows: R[]; more: boolean } {
    const { maxScore, after, minScore } = range;
    const afterKey = after === undefined ? '' : codePointKey(after.customer_id);
    // Strictly after `after` in at-risk order: a lower score, or the same score and a later id.
    const isAfter = (r: R) => after === undefined || r.score < after.score || (r.score === after.score && r.key > afterKey);
    const startsAt = (r: R) => (maxScore === null || r.score < maxScore) && isAfter(r);
    const lists = range.state === undefined ? SUBSCRIBER_STATES.map((s) => this.byState[s]) : [this.byState[range.state]];
    const cursors = lists.map((list) => list.from(startsAt));
    const heads = cursors.map((c) => c.next().value);
    const rows: R[] = [];
    for (;;) {
      // The best head across the lists (at most five).
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i];
        if (head !== undefined && (best === -1 || byRisk(head, heads[best]!) < 0)) best = i;
      }
      const row = best === -1 ? undefined : heads[best];
      if (row === undefined || row.score < minScore) return { rows, more: false };
      if (rows.length === limit) return { rows, more: true };
      rows.push(row);
      heads[best] = cursors[best]!.next().value;
    }
  }

  /** Given a range and a limit, the first `limit` rows of the range in revenue order, and whether more follow. */
  revenuePage(range: RevenueRange, limit: number): { rows: R[]; more: boolean } {
    return this.cells.page(range, limit);
  }

  /** Given a score range and an optional state, how many rows are in it and their summed monthly value. */
  total(range: CellRange): AtRiskTotal {
    return this.cells.total(range);
  }

  /**
   * Removes from the due queue and returns up to `limit` rows due at `now` (rescore_at at or
   * before it), earliest first; their `rescoreAt` is null until the caller re-materializes them.
   */
  takeDue(now: number, limit: number): R[] {
    if (limit <= 0) return [];
    const due = this.due.popDue(now, limit);
    this.queued -= due.length;
    return due;
  }

  private static emptyLists<R extends IndexedRow>(compare: (a: R, b: R) => number): Record<SubscriberState, SortedChunkList<R>> {
    return Object.fromEntries(SUBSCRIBER_STATES.map((s) => [s, new SortedChunkList<R>(compare)])) as Record<SubscriberState, SortedChunkList<R>>;
  }

}
