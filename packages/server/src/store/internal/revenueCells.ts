/**
 * The memory store's revenue index: one list per (state, score) cell in revenue order (monthly value
 * descending, customer id in code point order) with the cell's value sum, so a revenue page merges
 * the heads of the cells in range and a total sums at most 101 cells per state, whatever the number
 * of rows. The at-risk index owns one and moves rows in it when their keys change.
 */
import { SUBSCRIBER_STATES, type AtRiskTotal, type RevenuePosition, type SubscriberState } from '@tenure/core';
import { codePointKey, compareKeys } from './codePointKey.js';
import { SortedChunkList } from './sortedChunkList.js';

/** The keys a row is kept by in the cells. */
export interface CellRow {
  readonly key: string;
  state: SubscriberState;
  score: number;
  valueCents: number;
}

/** A score range and an optional state. */
export interface CellRange {
  minScore: number;
  maxScore: number | null;
  state?: SubscriberState | undefined;
}

/** A cell range and the position after which a revenue page starts. */
export interface RevenueRange extends CellRange {
  after?: RevenuePosition | undefined;
}

const byValue = (a: CellRow, b: CellRow): number => b.valueCents - a.valueCents || compareKeys(a.key, b.key);

/** The rows of one (state, score) in revenue order, and their summed value in cents. */
interface Cell<R> {
  rows: SortedChunkList<R>;
  cents: number;
}

/** state → score → cell. */
export class RevenueCells<R extends CellRow> {
  private cells = RevenueCells.empty<R>();

  /** Puts a row in the cell of its (state, score). */
  enter(row: R): void {
    const scores = this.cells[row.state];
    let cell = scores.get(row.score);
    if (cell === undefined) {
      cell = { rows: new SortedChunkList<R>(byValue), cents: 0 };
      scores.set(row.score, cell);
    }
    cell.rows.insert(row);
    cell.cents += row.valueCents;
  }

  /** Takes a row out of the cell of its (state, score); an emptied cell is dropped. */
  leave(row: R): void {
    const scores = this.cells[row.state];
    const cell = scores.get(row.score);
    if (cell === undefined) return;
    cell.rows.delete(row);
    cell.cents -= row.valueCents;
    if (cell.rows.size === 0) scores.delete(row.score);
  }

  /** Replaces every cell with the given rows, in O(n log n). */
  rebuild(rows: readonly R[]): void {
    this.cells = RevenueCells.empty<R>();
    const byCell = new Map<SubscriberState, Map<number, R[]>>();
    for (const row of rows) {
      const scores = byCell.get(row.state) ?? new Map<number, R[]>();
      byCell.set(row.state, scores);
      const list = scores.get(row.score) ?? [];
      scores.set(row.score, list);
      list.push(row);
    }
    for (const [state, scores] of byCell) {
      for (const [score, list] of scores) {
        this.cells[state].set(score, {
          rows: SortedChunkList.fromSorted(list.sort(byValue), byValue),
          cents: list.reduce((sum, r) => sum + r.valueCents, 0),
        });
      }
    }
  }

  /**
   * Given a range and a limit, returns the first `limit` rows of the range in revenue order and
   * whether more follow: a seek in each cell in the range (at most 101 per state), then one step
   * per row, merging the cells' heads.
   */
  page(range: RevenueRange, limit: number): { rows: R[]; more: boolean } {
    const { after } = range;
    const afterKey = after === undefined ? '' : codePointKey(after.customer_id);
    const afterCents = after === undefined ? 0 : Math.round(after.monthly_value_usd * 100);
    const startsAt = (r: R) =>
      after === undefined || r.valueCents < afterCents || (r.valueCents === afterCents && r.key > afterKey);
    const cursors = this.cellsIn(range).map((cell) => cell.rows.from(startsAt));
    const heads = cursors.map((c) => c.next().value);
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
      heads[best] = cursors[best]!.next().value;
    }
  }

  /** Given a range, returns how many rows are in it and their summed monthly value, from the cells. */
  total(range: CellRange): AtRiskTotal {
    let subscribers = 0;
    let cents = 0;
    for (const cell of this.cellsIn(range)) {
      subscribers += cell.rows.size;
      cents += cell.cents;
    }
    return { subscribers, monthly_value_usd: cents / 100 };
  }

  /** The non-empty cells of a range. */
  private cellsIn(range: CellRange): Cell<R>[] {
    const out: Cell<R>[] = [];
    for (const state of range.state === undefined ? SUBSCRIBER_STATES : [range.state]) {
      for (const [score, cell] of this.cells[state]) {
        if (score >= range.minScore && (range.maxScore === null || score < range.maxScore)) out.push(cell);
      }
    }
    return out;
  }

  private static empty<R>(): Record<SubscriberState, Map<number, Cell<R>>> {
    return Object.fromEntries(SUBSCRIBER_STATES.map((s) => [s, new Map<number, Cell<R>>()])) as Record<SubscriberState, Map<number, Cell<R>>>;
  }
}
