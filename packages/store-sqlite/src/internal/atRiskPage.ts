/**
 * Reading one at-risk page from the index, as keyset ranges that SQLite walks in index order (no
 * sort, no offset): the band filter becomes a score range, and a page that continues after
 * `(score, id)` reads the rest of that score (`score = s AND customer_id > id`) and then the lower
 * scores (`score < s`). A single `score <= s AND (score < s OR customer_id > id)` would walk past
 * every row of score `s` already served, which at a million rows can be most of the table.
 */
import type Database from 'better-sqlite3';
import type { AtRiskEntry, AtRiskPage, AtRiskQuery, RiskBand, TenureConfig } from '@tenure/core';
import { ROW_COLUMNS } from './statements.js';
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

/** Reads a page for a query and its lowest score from rows assumed exact, in one read transaction. */
export interface AtRiskReader {
  read: Database.Transaction<(query: AtRiskQuery, minScore: number, config: TenureConfig) => AtRiskPage<AtRiskEntry>>;
}

/** Prepares and keeps the page statements of one connection, one per shape of filters. */
export function createAtRiskReader(db: Database.Database): AtRiskReader {
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

  const read = db.transaction((query: AtRiskQuery, minScore: number, config: TenureConfig): AtRiskPage<AtRiskEntry> => {
    // A fractional limit pages like its floor in selectAtRisk; SQLite's LIMIT wants an integer.
    const limit = Math.min(Math.floor(query.limit), Number.MAX_SAFE_INTEGER - 1);
    if (!(limit > 0)) return { items: [], next: null };
    const [bandLower, upper] = bandRange(query.band, config.bands);
    const lower = Math.max(minScore, bandLower);
    const want = limit + 1; // one more tells whether another page follows
    const rows: StoredRow[] = [];
    let below = upper;
    const after = query.after;
    if (after !== undefined) {
      if (after.score >= lower && after.score < upper) rows.push(...run(true, after.score, after.customer_id, query, want));
      below = Math.min(upper, after.score);
    }
    if (rows.length < want && lower < below) rows.push(...run(false, lower, below, query, want - rows.length));
    const more = rows.length > limit;
    const items = (more ? rows.slice(0, limit) : rows).map(entryFrom);
    const last = items[items.length - 1];
    return { items, next: more && last !== undefined ? { score: last.score, customer_id: last.customer_id } : null };
  });

  return { read };
}
