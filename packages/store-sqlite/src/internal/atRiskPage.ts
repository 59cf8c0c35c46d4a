/**
 * Reading one at-risk page from the index, as keyset ranges that SQLite walks in index order (no
 * sort, no offset): the band filter becomes a score range, and a page that continues after
 * `(score, id)` reads the rest of that score (`score = s AND customer_id > id`) and then the lower
 * scores (`score < s`). A single `score <= s AND (score < s OR customer_id > id)` would walk past
 * every row of score `s` already served, which at a million rows can be most of the table.
 */
import type Database from 'better-sqlite3';
import {
  atRiskMinScore,
  compareAtRisk,
  matchesAtRisk,
  materializeAtRisk,
  type AtRiskEntry,
  type AtRiskPage,
  type AtRiskQuery,
  type RiskBand,
  type StoreContext,
  type Subscriber,
  type TenureConfig,
} from '@tenure/core';
import { ROW_COLUMNS, type Statements } from './statements.js';
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

/** What one read found: the page, and how many rows were due (assessed in memory, not yet written back). */
export interface AtRiskRead {
  page: AtRiskPage<AtRiskEntry>;
  due: number;
}

/**
 * Reads a page in one read transaction. Rows due at `ctx.now` are assessed in memory and merged
 * with the stored rows, so a read never needs the write lock; the caller writes them back later.
 */
export interface AtRiskReader {
  read: Database.Transaction<(query: AtRiskQuery, ctx: StoreContext) => AtRiskRead>;
}

/** Given the connection and its statement listing due rows, prepares the page statements on first use. */
export function createAtRiskReader(db: Database.Database, dueRows: Statements['due']): AtRiskReader {
  const cache = new Map<string, Database.Statement<unknown[], StoredRow>>();

  const statement = (sameScore: boolean, state: boolean, band: boolean) => {
    const key = `${sameScore ? 1 : 0}${state ? 1 : 0}${band ? 1 : 0}`;
    let stmt = cache.get(key);
    if (stmt === undefined) {
      stmt = db.prepare<unknown[], StoredRow>(atRiskPageSql(sameScore, state, band));
      cache.set(key, stmt);
    }
    return stmt;
  };

  const run = (sameScore: boolean, a: unknown, b: unknown, query: AtRiskQuery, limit: number): StoredRow[] => {
    const params: unknown[] = [a, b];
    if (query.state !== undefined) params.push(query.state);
    if (query.band !== undefined) params.push(query.band);
    params.push(limit);
    return statement(sameScore, query.state !== undefined, query.band !== undefined).all(...params);
  };

  const read = db.transaction((query: AtRiskQuery, { now, config }: StoreContext): AtRiskRead => {
    // A fractional limit pages like its floor in selectAtRisk; SQLite's LIMIT wants an integer.
    const limit = Math.min(Math.floor(query.limit), Number.MAX_SAFE_INTEGER / 2);
    if (!(limit > 0)) return { page: { items: [], next: null }, due: 0 };
    const after = query.after;

    // Due rows are stale in the index: assess them now and keep those the query selects.
    const due = dueRows.all(now, Number.MAX_SAFE_INTEGER);
    const dueIds = new Set<string>();
    const fresh: AtRiskEntry[] = [];
    for (const { customer_id, record } of due) {
      dueIds.add(customer_id);
      const subscriber = JSON.parse(record) as Subscriber;
      const { row } = materializeAtRisk(subscriber, now, config);
      if (matchesAtRisk(row, query, config) && (after === undefined || compareAtRisk(row, after) > 0)) fresh.push({ ...row, subscriber });
    }

    // The stored rows, with enough extra to make up for due ones among them (dropped below).
    const [bandLower, upper] = bandRange(query.band, config.bands);
    const lower = Math.max(atRiskMinScore(query, config), bandLower);
    const want = limit + 1 + due.length; // one more than the page tells whether another follows
    const rows: StoredRow[] = [];
    let below = upper;
    if (after !== undefined) {
      if (after.score >= lower && after.score < upper) rows.push(...run(true, after.score, after.customer_id, query, want));
      below = Math.min(upper, after.score);
    }
    if (rows.length < want && lower < below) rows.push(...run(false, lower, below, query, want - rows.length));

    let entries = rows.filter((row) => !dueIds.has(row.customer_id)).map(entryFrom);
    if (fresh.length > 0) entries = [...entries, ...fresh].sort(compareAtRisk);
    const more = entries.length > limit;
    const items = more ? entries.slice(0, limit) : entries;
    const last = items[items.length - 1];
    return { page: { items, next: more && last !== undefined ? { score: last.score, customer_id: last.customer_id } : null }, due: due.length };
  });

  return { read };
}
