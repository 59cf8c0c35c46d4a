/**
 * Reading a page of the at-risk index. The statement is built per combination of filters, so each
 * shape gets a plan on the index it needs: (score DESC, customer_id), or (state, score DESC,
 * customer_id) with a state filter. A band filter becomes a score range as well (bands are score
 * ranges), so the scan starts and stops inside the band instead of filtering the rows above it.
 *
 * The total and the revenue order both start from the (state, score) cells: the total sums the
 * cells' deltas (`at_risk_deltas`), and a revenue page reads at most a page from each non-empty
 * cell in the filters on (state, score, monthly_value_cents DESC, customer_id), one LATERAL
 * statement, then keeps the first page of the merge: never a scan or sort of every match.
 */
import {
  atRiskMinScore,
  positionIn,
  type AtRiskEntry,
  type AtRiskPage,
  type AtRiskQuery,
  type AtRiskTotal,
  type PositionOf,
  type RevenueQuery,
  type RiskBand,
  type TenureConfig,
} from '@tenure/core';
import type pg from 'pg';
import { ROW_COLUMNS, toAtRiskEntry, type SubscriberDbRow } from './subscriberRows.js';
import type { Tables } from './tables.js';

/** Given a band and the thresholds, returns the scores `bandFor` maps to it: [low, high). Pure. */
function scoreRange(band: RiskBand, bands: TenureConfig['bands']): { low: number | null; high: number | null } {
  switch (band) {
    case 'critical':
      return { low: bands.critical, high: null };
    case 'high':
      return { low: bands.high, high: bands.critical };
    case 'medium':
      return { low: bands.medium, high: Math.min(bands.high, bands.critical) };
    case 'low':
      return { low: null, high: Math.min(bands.medium, bands.high, bands.critical) };
  }
}

/** A non-empty (state, score) cell: how many rows and their summed monthly value in cents. */
interface Cell {
  state: string;
  score: number;
  count: number;
  cents: number;
}

/** Delta rows beyond which a read folds them into one row per cell first. */
const COMPACT_ABOVE = 5000;

/**
 * Folds the delta rows into one per cell (in one statement: the rows it deletes are exactly the ones
 * it sums; concurrent writers' new rows are untouched). Any replica may run it at any time.
 */
export async function compactDeltas(pool: pg.Pool, t: Tables): Promise<void> {
  await pool.query(
    `WITH moved AS (DELETE FROM ${t.atRiskDeltas} RETURNING state, score, count, cents)
     INSERT INTO ${t.atRiskDeltas} (state, score, count, cents)
     SELECT state, score, sum(count), sum(cents) FROM moved GROUP BY state, score HAVING sum(count) <> 0 OR sum(cents) <> 0`,
  );
}

/** The non-empty cells whose state and score are in the query's filters. */
async function cellsOf(pool: pg.Pool, t: Tables, query: AtRiskQuery, config: TenureConfig): Promise<Cell[]> {
  const { rows: size } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM (SELECT 1 FROM ${t.atRiskDeltas} LIMIT ${COMPACT_ABOVE + 1}) AS d`);
  if (Number(size[0]?.n ?? 0) > COMPACT_ABOVE) await compactDeltas(pool, t);
  let low = atRiskMinScore(query, config);
  let high: number | null = null;
  if (query.band !== undefined) {
    const range = scoreRange(query.band, config.bands);
    if (range.low !== null) low = Math.max(low, range.low);
    high = range.high;
  }
  const values: unknown[] = [low];
  const where = ['score >= $1'];
  if (high !== null) where.push(`score < $${values.push(high)}`);
  if (query.state !== undefined) where.push(`state = $${values.push(query.state)}`);
  const { rows } = await pool.query<{ state: string; score: number; count: string; cents: string }>(
    `SELECT state, score, sum(count) AS count, sum(cents) AS cents FROM ${t.atRiskDeltas} WHERE ${where.join(' AND ')}
     GROUP BY state, score HAVING sum(count) <> 0`,
    values,
  );
  return rows.map((r) => ({ state: r.state, score: r.score, count: Number(r.count), cents: Number(r.cents) }));
}

/** A revenue page: at most `limit + 1` rows from each cell after the position, merged by Postgres. */
async function readRevenueRows(pool: pg.Pool, t: Tables, query: RevenueQuery, cells: readonly Cell[]): Promise<SubscriberDbRow[]> {
  if (cells.length === 0) return [];
  const values: unknown[] = [cells.map((c) => c.state), cells.map((c) => c.score), query.limit + 1];
  let after = '';
  if (query.after !== undefined) {
    // `<= $v` bounds the index range; the rest settles ties (same value, later id).
    const cents = `$${values.push(Math.round(query.after.monthly_value_usd * 100))}`;
    after = `AND s.monthly_value_cents <= ${cents} AND (s.monthly_value_cents < ${cents} OR s.customer_id > $${values.push(query.after.customer_id)})`;
  }
  const columns = ROW_COLUMNS.split(', ').map((c) => `r.${c}`).join(', ');
  const { rows } = await pool.query<SubscriberDbRow>(
    `SELECT r.customer_id, r.record, ${columns}
     FROM unnest($1::text[], $2::smallint[]) AS c(state, score)
     CROSS JOIN LATERAL (
       SELECT s.customer_id, s.record, ${ROW_COLUMNS.split(', ').map((col) => `s.${col}`).join(', ')} FROM ${t.subscribers} AS s
       WHERE s.state = c.state AND s.score = c.score ${after}
       ORDER BY s.monthly_value_cents DESC, s.customer_id LIMIT $3
     ) AS r
     ORDER BY r.monthly_value_cents DESC, r.customer_id LIMIT $3`,
    values,
  );
  return rows;
}

/** Reads one score-order page. */
async function readScoreRows(pool: pg.Pool, t: Tables, query: AtRiskQuery & { sort?: 'score' | undefined }, config: TenureConfig): Promise<SubscriberDbRow[]> {
  const where: string[] = [];
  const values: unknown[] = [];
  const param = (value: unknown): string => `$${values.push(value)}`;
  where.push(`score >= ${param(atRiskMinScore(query, config))}`);
  if (query.state !== undefined) where.push(`state = ${param(query.state)}`);
  if (query.band !== undefined) {
    where.push(`band = ${param(query.band)}`);
    const { low, high } = scoreRange(query.band, config.bands);
    if (low !== null) where.push(`score >= ${param(low)}`);
    if (high !== null) where.push(`score < ${param(high)}`);
  }
  if (query.after !== undefined) {
    // (score, customer_id) strictly after the position in (score DESC, customer_id ASC) order;
    // `score <= $s` is the index bound, the rest settles ties.
    const score = param(query.after.score);
    where.push(`score <= ${score} AND (score < ${score} OR customer_id > ${param(query.after.customer_id)})`);
  }
  const limit = param(query.limit + 1);
  const { rows } = await pool.query<SubscriberDbRow>(
    `SELECT customer_id, record, ${ROW_COLUMNS} FROM ${t.subscribers} WHERE ${where.join(' AND ')} ORDER BY score DESC, customer_id LIMIT ${limit}`,
    values,
  );
  return rows;
}

/** Reads one at-risk page and the total of its filters; the rows must be fresh at `now` already. */
export async function readAtRisk<Q extends AtRiskQuery>(
  pool: pg.Pool,
  t: Tables,
  query: Q,
  config: TenureConfig,
): Promise<AtRiskPage<AtRiskEntry, PositionOf<Q>>> {
  const cells = await cellsOf(pool, t, query, config);
  const cents = cells.reduce((sum, c) => sum + c.cents, 0);
  const total: AtRiskTotal = { subscribers: cells.reduce((sum, c) => sum + c.count, 0), monthly_value_usd: cents / 100 };
  if (query.limit <= 0) return { items: [], next: null, total };
  const rows = query.sort === 'revenue' ? await readRevenueRows(pool, t, query, cells) : await readScoreRows(pool, t, query, config);
  const more = rows.length > query.limit;
  const items = (more ? rows.slice(0, query.limit) : rows).map(toAtRiskEntry);
  const last = items[items.length - 1];
  return { items, next: more && last !== undefined ? positionIn(query, last) : null, total };
}
