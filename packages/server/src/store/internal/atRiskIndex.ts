/**
 * The memory store's at-risk indexes over its rows: one ordered list per state by (score
 * descending, customer id in code point order), so a page is a seek plus `limit` steps (a page over
 * every state merges the lists' heads); one list per state by (monthly value descending, customer
 * id) for the revenue order, whose pages skip rows outside the score range; count and value sums
 * per (state, score), so a total sums at most 101 cells per state; and a heap of rows by
 * `rescore_at` for the rows that come due. A row's key fields are only changed through `update`,
 * which moves the row in exactly the indexes whose key changed.
 */
import { SUBSCRIBER_STATES, type AtRiskPosition, type AtRiskTotal, type RevenuePosition, type SubscriberState } from '@tenure/core';
import { codePointKey, compareKeys } from './codePointKey.js';
import { DueHeap } from './dueHeap.js';
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
export interface RevenueRange {
  minScore: number;
  maxScore: number | null;
  state?: SubscriberState | undefined;
  after?: RevenuePosition | undefined;
}

const byRisk = (a: IndexedRow, b: IndexedRow): number => b.score - a.score || compareKeys(a.key, b.key);
const byValue = (a: IndexedRow, b: IndexedRow): number => b.valueCents - a.valueCents || compareKeys(a.key, b.key);

/** Count and value of the rows of one (state, score). */
interface Cell {
  count: number;
  cents: number;
}

/** The at-risk and due indexes of one store. */
export class AtRiskIndex<R extends IndexedRow> {
  private byState = AtRiskIndex.emptyLists<R>(byRisk);
  private byStateValue = AtRiskIndex.emptyLists<R>(byValue);
  /** state → score → count and value sum of the rows there. */
  private sums = AtRiskIndex.emptySums();
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
    this.byStateValue[row.state].insert(row);
    this.count(row, 1);
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
      const movesValue = keys.valueCents !== row.valueCents || keys.state !== row.state;
      this.count(row, -1);
      if (movesRisk) this.byState[row.state].delete(row);
      if (movesValue) this.byStateValue[row.state].delete(row);
      row.score = keys.score;
      row.state = keys.state;
      row.valueCents = keys.valueCents;
      if (movesRisk) this.byState[row.state].insert(row);
      if (movesValue) this.byStateValue[row.state].insert(row);
      this.count(row, 1);
    }
    if (keys.rescoreAt !== row.rescoreAt) {
      // The old heap node goes stale by itself: its time no longer matches the row's.
      this.queued += (keys.rescoreAt !== null ? 1 : 0) - (row.rescoreAt !== null ? 1 : 0);
      row.rescoreAt = keys.rescoreAt;
      this.due.push(row);
      this.due.compactIfSparse(this.queued);
    }
  }

  /** Replaces every index with the given rows (after re-materializing them all), in O(n log n). */
  rebuild(rows: readonly R[]): void {
    this.byState = AtRiskIndex.emptyLists<R>(byRisk);
    this.byStateValue = AtRiskIndex.emptyLists<R>(byValue);
    this.sums = AtRiskIndex.emptySums();
    for (const state of SUBSCRIBER_STATES) {
      const ofState = rows.filter((r) => r.state === state);
      this.byState[state] = SortedChunkList.fromSorted([...ofState].sort(byRisk), byRisk);
      this.byStateValue[state] = SortedChunkList.fromSorted(ofState.sort(byValue), byValue);
    }
    for (const row of rows) this.count(row, 1);
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

  /**
   * Given a range and a limit, returns the first `limit` rows of the range in revenue order and
   * whether more follow: a seek in each state's value list, merging heads, skipping rows whose score
   * is outside the range (so a page walks the rows below the minimum score that sit among the
   * matching ones).
   */
  revenuePage(range: RevenueRange, limit: number): { rows: R[]; more: boolean } {
    const { maxScore, after, minScore } = range;
    const afterKey = after === undefined ? '' : codePointKey(after.customer_id);
    const afterCents = after === undefined ? 0 : Math.round(after.monthly_value_usd * 100);
    const startsAt = (r: R) =>
      after === undefined || r.valueCents < afterCents || (r.valueCents === afterCents && r.key > afterKey);
    const inRange = (r: R) => r.score >= minScore && (maxScore === null || r.score < maxScore);
    const lists = range.state === undefined ? SUBSCRIBER_STATES.map((s) => this.byStateValue[s]) : [this.byStateValue[range.state]];
    const cursors = lists.map((list) => list.from(startsAt));
    const advance = (i: number): R | undefined => {
      for (let step = cursors[i]!.next(); !step.done; step = cursors[i]!.next()) if (inRange(step.value)) return step.value;
      return undefined;
    };
    const heads = cursors.map((_, i) => advance(i));
    const rows: R[] = [];
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i];
        if (head !== undefined && (best === -1 || byValue(head, heads[best]!) < 0)) best = i;
      }
      if (best === -1) return { rows, more: false };
      if (rows.length === limit) return { rows, more: true };
      rows.push(heads[best]!);
      heads[best] = advance(best);
    }
  }

  /**
   * Given a score range and an optional state, returns how many rows are in it and their summed
   * monthly value, from the per-(state, score) sums: at most 101 cells per state, whatever the number of rows.
   */
  total(range: { minScore: number; maxScore: number | null; state?: SubscriberState | undefined }): AtRiskTotal {
    let subscribers = 0;
    let cents = 0;
    for (const state of range.state === undefined ? SUBSCRIBER_STATES : [range.state]) {
      for (const [score, cell] of this.sums[state]) {
        if (score < range.minScore || (range.maxScore !== null && score >= range.maxScore)) continue;
        subscribers += cell.count;
        cents += cell.cents;
      }
    }
    return { subscribers, monthly_value_usd: cents / 100 };
  }

  /** Adds (sign 1) or removes (sign -1) a row from its (state, score) cell. */
  private count(row: R, sign: 1 | -1): void {
    const cells = this.sums[row.state];
    const cell = cells.get(row.score) ?? { count: 0, cents: 0 };
    cell.count += sign;
    cell.cents += sign * row.valueCents;
    if (cell.count === 0) cells.delete(row.score);
    else cells.set(row.score, cell);
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

  private static emptySums(): Record<SubscriberState, Map<number, Cell>> {
    return Object.fromEntries(SUBSCRIBER_STATES.map((s) => [s, new Map<number, Cell>()])) as Record<SubscriberState, Map<number, Cell>>;
  }
}
