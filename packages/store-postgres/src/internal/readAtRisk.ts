/**
 * Reading a page of the at-risk index. The statement is built per combination of filters, so each
 * shape gets a plan on the index it needs: (score DESC, customer_id), or (state, score DESC,
 * customer_id) with a state filter. A band filter becomes a score range as well (bands are score
 * ranges), so the scan starts and stops inside the band instead of filtering the rows above it.
 */
import { atRiskMinScore, type AtRiskEntry, type AtRiskPage, type AtRiskQuery, type RiskBand, type TenureConfig } from '@tenure/core';
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

/** Reads one page at-risk page; the rows must be fresh at `now` already. */
export async function readAtRisk(pool: pg.Pool, t: Tables, query: AtRiskQuery, config: TenureConfig): Promise<AtRiskPage<AtRiskEntry>> {
  if (query.limit <= 0) return { items: [], next: null };
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
  const more = rows.length > query.limit;
  const items = (more ? rows.slice(0, query.limit) : rows).map(toAtRiskEntry);
  const last = items[items.length - 1];
  return { items, next: more && last !== undefined ? { score: last.score, customer_id: last.customer_id } : null };
}
