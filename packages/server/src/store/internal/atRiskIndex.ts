/**
 * The memory store's at-risk indexes over its rows: one ordered by (score descending, customer id
 * in code point order) for all rows and one per state, so a page is a seek plus `limit` steps, and
 * one ordered by (rescore_at, customer id) for the rows that come due. A row's key fields are only
 * changed through `update`, which moves the row in exactly the indexes whose key changed.
 */
import { SUBSCRIBER_STATES, type AtRiskPosition, type SubscriberState } from '@tenure/core';
import { codePointKey, compareKeys } from './codePointKey.js';
import { SortedChunkList } from './sortedChunkList.js';

/** The keys a row is indexed by. */
export interface IndexedRow {
  readonly id: string;
  /** `codePointKey(id)`: compared natively, it orders rows by id in code point order. */
  readonly key: string;
  state: SubscriberState;
  score: number;
  /** When the row must be materialized again; null: not until the subscriber changes. */
  rescoreAt: number | null;
}

/** The new keys of a row. */
export interface RowKeys {
  state: SubscriberState;
  score: number;
  rescoreAt: number | null;
}

/** Which rows a page wants: `minScore <= score < maxScore` (null: no upper bound), optionally one state. */
export interface IndexRange {
  minScore: number;
  maxScore: number | null;
  state?: SubscriberState | undefined;
  after?: AtRiskPosition | undefined;
}

const byRisk = (a: IndexedRow, b: IndexedRow): number => b.score - a.score || compareKeys(a.key, b.key);
const byRescore = (a: IndexedRow, b: IndexedRow): number => a.rescoreAt! - b.rescoreAt! || compareKeys(a.key, b.key);

/** The at-risk and due indexes of one store. */
export class AtRiskIndex<R extends IndexedRow> {
  private all = new SortedChunkList<R>(byRisk);
  private byState = this.emptyStateLists();
  private due = new SortedChunkList<R>(byRescore);

  /** Rows indexed. */
  get size(): number {
    return this.all.size;
  }

  /** Indexes a row not indexed yet. */
  add(row: R): void {
    this.all.insert(row);
    this.byState[row.state].insert(row);
    if (row.rescoreAt !== null) this.due.insert(row);
  }

  /** Sets a row's keys, moving it in the indexes whose key changed. */
  update(row: R, keys: RowKeys): void {
    if (keys.score !== row.score || keys.state !== row.state) {
      this.all.delete(row);
      this.byState[row.state].delete(row);
      row.score = keys.score;
      row.state = keys.state;
      this.all.insert(row);
      this.byState[row.state].insert(row);
    }
    if (keys.rescoreAt !== row.rescoreAt) {
      if (row.rescoreAt !== null) this.due.delete(row);
      row.rescoreAt = keys.rescoreAt;
      if (row.rescoreAt !== null) this.due.insert(row);
    }
  }

  /** Replaces every index with the given rows (after re-materializing them all), in O(n log n). */
  rebuild(rows: readonly R[]): void {
    this.all = SortedChunkList.fromSorted([...rows].sort(byRisk), byRisk);
    this.byState = this.emptyStateLists();
    for (const state of SUBSCRIBER_STATES) {
      this.byState[state] = SortedChunkList.fromSorted(
        rows.filter((r) => r.state === state).sort(byRisk),
        byRisk,
      );
    }
    this.due = SortedChunkList.fromSorted(rows.filter((r) => r.rescoreAt !== null).sort(byRescore), byRescore);
  }

  /**
   * Given a range and a limit, returns the first `limit` rows of the range in at-risk order and
   * whether more rows follow: a seek in the state's index (or the whole one), then one step per row.
   */
  page(range: IndexRange, limit: number): { rows: R[]; more: boolean } {
    const list = range.state === undefined ? this.all : this.byState[range.state];
    const { maxScore, after, minScore } = range;
    const afterKey = after === undefined ? '' : codePointKey(after.customer_id);
    // Strictly after `after` in at-risk order: a lower score, or the same score and a later id.
    const isAfter = (r: R) => after === undefined || r.score < after.score || (r.score === after.score && r.key > afterKey);
    const startsAt = (r: R) => (maxScore === null || r.score < maxScore) && isAfter(r);
    const rows: R[] = [];
    for (const row of list.from(startsAt)) {
      if (row.score < minScore) break;
      if (rows.length === limit) return { rows, more: true };
      rows.push(row);
    }
    return { rows, more: false };
  }

  /** Up to `limit` rows due at `now` (rescore_at at or before it), earliest first. */
  dueAt(now: number, limit: number): R[] {
    const rows: R[] = [];
    if (limit <= 0) return rows;
    for (const row of this.due) {
      if (row.rescoreAt! > now) break;
      rows.push(row);
      if (rows.length >= limit) break;
    }
    return rows;
  }

  private emptyStateLists(): Record<SubscriberState, SortedChunkList<R>> {
    return Object.fromEntries(SUBSCRIBER_STATES.map((s) => [s, new SortedChunkList<R>(byRisk)])) as Record<SubscriberState, SortedChunkList<R>>;
  }
}
