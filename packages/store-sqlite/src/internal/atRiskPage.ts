/**
 * Reading one at-risk page from the index, as keyset ranges that SQLite walks in index order (no
 * sort, no offset): the band filter becomes a score range, and a page that continues after
 * `(score, id)` reads the rest of that score (`score = s AND customer_id > id`) and then the lower
 * scores (`score < s`). A single `score <= s AND (score < s OR customer_id > id)` would walk past
 * every row of score `s` already served, which at a million rows can be most of the table.
 *
 * The revenue order reads, for each non-empty (state, score) cell in the filters (from
 * `at_risk_totals`), at most a page of rows from the index on (state, score, monthly_value_cents
 * DESC, customer_id), and merges them: a page costs at most cells × page rows, never a scan or a
 * sort of every match. The total comes from the same cells (at most 101 per state), with the due
 * rows' stale cells replaced by their fresh assessment.
 */
import type Database from 'better-sqlite3';
import {
  atRiskMinScore,
  compareIn,
  isAfterPosition,
  matchesAtRisk,
  positionIn,
  materializeAtRisk,
  type AtRiskEntry,
  type AtRiskPage,
  type AtRiskQuery,
  type AtRiskTotal,
  type PositionOf,
  type RevenueQuery,
  type ScoreQuery,
  type RiskBand,
  type StoreContext,
  type Subscriber,
  type TenureConfig,
} from '@tenure/core';
import { ROW_COLUMNS, type Statements, type TotalsCell } from './statements.js';
import { entryFrom, type StoredRow } from './rowMapping.js';

/** The scores `[lower, upper)` of a band under `bandFor`'s rule (critical first, then high, then medium). */
function bandRange(band: RiskBand | undefined, bands: TenureConfig['bands']): [number, number] {
  switch (band) {
    case undefined:
      return [-Infinity, Infinity];
    case 'critical':
      return [bands.critical, Infinity];
    case 'high':
      return [bands.high, bands.critical];
    case 'medium':
      return [bands.medium, Math.min(bands.high, bands.critical)];
    case 'low':
      return [-Infinity, Math.min(bands.medium, bands.high, bands.critical)];
  }
}

/**
 * The SQL of one page statement: the rest of one score after an id (`sameScore`, parameters score,
 * id) or the scores in `[lower, upper)` (parameters lower, upper), then state and band when
 * filtered, then the limit.
 */
export function atRiskPageSql(sameScore: boolean, state: boolean, band: boolean): string {
  const where = [sameScore ? 'score = ? AND customer_id > ?' : 'score >= ? AND score < ?'];
  if (state) where.push('state = ?');
  if (band) where.push('band = ?');
  const order = sameScore ? 'customer_id' : 'score DESC, customer_id';
  return `SELECT customer_id, record, ${ROW_COLUMNS} FROM subscribers WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`;
}

/**
 * The SQL of one revenue read inside one (state, score) cell, in value order: the rest of one value
 * after an id (`sameValue`, parameters state, score, cents, id), the values below one (`below`,
 * parameters state, score, cents) or all (`all`, parameters state, score), then the limit.
 */
export function revenueCellSql(position: 'sameValue' | 'below' | 'all'): string {
  const where = ['state = ? AND score = ?'];
  if (position === 'sameValue') where.push('monthly_value_cents = ? AND customer_id > ?');
  if (position === 'below') where.push('monthly_value_cents < ?');
  const order = position === 'sameValue' ? 'customer_id' : 'monthly_value_cents DESC, customer_id';
  return `SELECT customer_id, record, ${ROW_COLUMNS} FROM subscribers WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`;
}

/** What one read found: the page, and how many rows were due (assessed in memory, not yet written back). */
export interface AtRiskRead<P> {
  page: AtRiskPage<AtRiskEntry, P>;
  due: number;
}

/**
 * Reads a page in one read transaction. Rows due at `ctx.now` are assessed in memory and merged
 * with the stored rows, so a read never needs the write lock; the caller writes them back later.
 */
export interface AtRiskReader {
  read<Q extends AtRiskQuery>(query: Q, ctx: StoreContext): AtRiskRead<PositionOf<Q>>;
}

/** Given the connection and its statements, prepares the page statements on first use. */
export function createAtRiskReader(db: Database.Database, statements: Pick<Statements, 'due' | 'totals'>): AtRiskReader {
  const cache = new Map<string, Database.Statement<unknown[], StoredRow>>();
  const prepared = (key: string, sql: () => string) => {
    let stmt = cache.get(key);
    if (stmt === undefined) {
      stmt = db.prepare<unknown[], StoredRow>(sql());
      cache.set(key, stmt);
    }
    return stmt;
  };
  const filterParams = (query: AtRiskQuery, limit: number): unknown[] => {
    const params: unknown[] = [];
    if (query.state !== undefined) params.push(query.state);
    if (query.band !== undefined) params.push(query.band);
    params.push(limit);
    return params;
  };
  const hasState = (query: AtRiskQuery) => query.state !== undefined;
  const hasBand = (query: AtRiskQuery) => query.band !== undefined;

  const run = (sameScore: boolean, a: unknown, b: unknown, query: AtRiskQuery, limit: number): StoredRow[] =>
    prepared(`s${sameScore ? 1 : 0}${hasState(query) ? 1 : 0}${hasBand(query) ? 1 : 0}`, () => atRiskPageSql(sameScore, hasState(query), hasBand(query))).all(
      a,
      b,
      ...filterParams(query, limit),
    );
  const runCell = (position: 'sameValue' | 'below' | 'all', params: unknown[]): StoredRow[] =>
    prepared(`r${position}`, () => revenueCellSql(position)).all(...params);

  /** Stored rows of a score-order page: at most `want`, in order, strictly after the query's position. */
  const scoreRows = (query: ScoreQuery, lower: number, upper: number, want: number): StoredRow[] => {
    const rows: StoredRow[] = [];
    const after = query.after;
    let below = upper;
    if (after !== undefined) {
      if (after.score >= lower && after.score < upper) rows.push(...run(true, after.score, after.customer_id, query, want));
      below = Math.min(upper, after.score);
    }
    if (rows.length < want && lower < below) rows.push(...run(false, lower, below, query, want - rows.length));
    return rows;
  };

  /**
   * Stored rows of a revenue-order page: at most `want` from each cell, strictly after the query's
   * position (the caller merges and cuts them).
   */
  const revenueRows = (query: RevenueQuery, cells: readonly TotalsCell[], want: number): StoredRow[] => {
    const after = query.after;
    const cents = after === undefined ? 0 : Math.round(after.monthly_value_usd * 100);
    const rows: StoredRow[] = [];
    for (const { state, score } of cells) {
      if (after === undefined) {
        rows.push(...runCell('all', [state, score, want]));
        continue;
      }
      const same = runCell('sameValue', [state, score, cents, after.customer_id, want]);
      rows.push(...same);
      if (same.length < want) rows.push(...runCell('below', [state, score, cents, want - same.length]));
    }
    return rows;
  };

  /** Whether a stored cell or row (state, score) is inside the query's filters. */
  const inFilters = (state: string, score: number, query: AtRiskQuery, lower: number, upper: number) =>
    score >= lower && score < upper && (query.state === undefined || state === query.state);

  const read = db.transaction((query: AtRiskQuery, { now, config }: StoreContext): AtRiskRead<unknown> => {
    const [bandLower, upper] = bandRange(query.band, config.bands);
    const lower = Math.max(atRiskMinScore(query, config), bandLower);

    // Due rows are stale in the index: assess them now; keep those the query selects, and replace
    // their stale cells in the total by their fresh ones.
    const due = statements.due.all(now, Number.MAX_SAFE_INTEGER);
    const dueIds = new Set<string>();
    const fresh: AtRiskEntry[] = [];
    let count = 0;
    let cents = 0;
    for (const stored of due) {
      dueIds.add(stored.customer_id);
      if (inFilters(stored.state, stored.score, query, lower, upper)) (count -= 1), (cents -= stored.monthly_value_cents);
      const subscriber = JSON.parse(stored.record) as Subscriber;
      const { row } = materializeAtRisk(subscriber, now, config);
      if (!matchesAtRisk(row, query, config)) continue;
      count += 1;
      cents += Math.round(row.monthly_value_usd * 100);
      if (isAfterPosition(query, row)) fresh.push({ ...row, subscriber });
    }
    const cells = (statements.totals.all() as TotalsCell[]).filter((cell) => inFilters(cell.state, cell.score, query, lower, upper));
    for (const cell of cells) (count += cell.count), (cents += cell.cents);
    const total: AtRiskTotal = { subscribers: count, monthly_value_usd: cents / 100 };

    // A fractional limit pages like its floor in selectAtRisk; SQLite's LIMIT wants an integer.
    const limit = Math.min(Math.floor(query.limit), Number.MAX_SAFE_INTEGER / 2);
    if (!(limit > 0)) return { page: { items: [], next: null, total }, due: due.length };

    // The stored rows, with enough extra to make up for due ones among them (dropped below).
    const want = limit + 1 + due.length; // one more than the page tells whether another follows
    const rows = query.sort === 'revenue' ? revenueRows(query, cells, want) : scoreRows(query, lower, upper, want);

    let entries = rows.filter((row) => !dueIds.has(row.customer_id)).map(entryFrom);
    // Rows of several cells (revenue) or due rows assessed now come in more than one run: merge them.
    if (fresh.length > 0 || query.sort === 'revenue') entries = [...entries, ...fresh].sort(compareIn(query));
    const more = entries.length > limit;
    const items = more ? entries.slice(0, limit) : entries;
    const last = items[items.length - 1];
    return { page: { items, next: more && last !== undefined ? positionIn(query, last) : null, total }, due: due.length };
  });

  return { read: read as AtRiskReader['read'] };
}
