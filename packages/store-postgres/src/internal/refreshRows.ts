/**
 * Re-materializing stored at-risk rows without a new event: the rows that came due (time moved a
 * score) and, after a configuration change, every row. Rows are locked (`FOR UPDATE`) in customer
 * id order and re-assessed from the record as locked, so a refresh never writes a row computed from
 * an older record over a newer one, and two replicas refreshing at once never deadlock.
 */
import { materializeAtRisk, type Subscriber, type TenureConfig } from '@tenure/core';
import type pg from 'pg';
import { RowColumns, SET_ROW_FROM_U, UNNEST_ROWS } from './subscriberRows.js';
import type { Tables } from './tables.js';
import { withTransaction } from './withTransaction.js';

/** The SQL of refreshes, built once per schema. */
export interface RefreshSql {
  nextDue: string;
  lockDue: string;
  lockDueSkipLocked: string;
  lockPage: string;
  updateRows: string;
}

/** Given the tables, returns the statements of the refreshes. Pure. */
export function refreshSql(t: Tables): RefreshSql {
  // The inner select finds the due rows through the partial index on rescore_at; the outer one
  // locks them in customer id order and, after waiting for a lock, checks again that the row (as
  // committed by whoever held it) is still due.
  const lockDue = `
    SELECT customer_id, record FROM ${t.subscribers}
    WHERE customer_id IN (SELECT customer_id FROM ${t.subscribers} WHERE rescore_at IS NOT NULL AND rescore_at <= $1 ORDER BY rescore_at LIMIT $2)
      AND rescore_at <= $1
    ORDER BY customer_id
    FOR UPDATE`;
  return {
    // The first entry of the rescore_at index, whatever the statistics say about how many are due.
    nextDue: `SELECT rescore_at FROM ${t.subscribers} WHERE rescore_at IS NOT NULL ORDER BY rescore_at LIMIT 1`,
    lockDue,
    lockDueSkipLocked: `${lockDue} SKIP LOCKED`,
    lockPage: `SELECT customer_id, record FROM ${t.subscribers} WHERE customer_id > $1 ORDER BY customer_id LIMIT $2 FOR UPDATE`,
    updateRows: `UPDATE ${t.subscribers} AS s SET ${SET_ROW_FROM_U} FROM ${UNNEST_ROWS} WHERE s.customer_id = u.customer_id`,
  };
}

type Locked = { customer_id: string; record: Subscriber }[];

async function rematerialize(client: pg.ClientBase, sql: RefreshSql, rows: Locked, now: number, config: TenureConfig): Promise<void> {
  if (rows.length === 0) return;
  const columns = new RowColumns();
  for (const { record } of rows) columns.push(record, materializeAtRisk(record, now, config).row);
  await client.query(sql.updateRows, columns.params());
}

/**
 * Re-materializes at `now` at most `limit` rows whose `rescore_at` is at or before `now`, in one
 * transaction; resolves with how many. `skipLocked` passes over rows another transaction holds
 * (the background sweep: another replica is on them); without it the refresh waits for them, so
 * that a query right after sees every due row up to date.
 */
export function refreshDueRows(pool: pg.Pool, sql: RefreshSql, now: number, config: TenureConfig, limit: number, skipLocked: boolean): Promise<number> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<Locked[number]>(skipLocked ? sql.lockDueSkipLocked : sql.lockDue, [now, limit]);
    await rematerialize(client, sql, rows, now, config);
    return rows.length;
  }, 'derived');
}

/** Resolves with whether any row is due at `now` (one probe of the rescore_at index). */
export async function anyDue(pool: pg.Pool, sql: RefreshSql, now: number): Promise<boolean> {
  const { rows } = await pool.query<{ rescore_at: number }>(sql.nextDue);
  const next = rows[0]?.rescore_at;
  return next !== undefined && next <= now;
}

/**
 * Re-materializes every row at `now` under `config`, a page of `pageSize` customers per
 * transaction (so the store stays usable meanwhile), telling `onProgress` after each page (of
 * `expected` rows, when known); resolves with how many.
 */
export async function refreshAllRows(
  pool: pg.Pool,
  sql: RefreshSql,
  now: number,
  config: TenureConfig,
  onProgress?: (done: number, total: number) => void,
  expected = 0,
  pageSize = 1000,
): Promise<number> {
  let after = '';
  let total = 0;
  for (;;) {
    const page = await withTransaction(pool, async (client) => {
      const { rows } = await client.query<Locked[number]>(sql.lockPage, [after, pageSize]);
      await rematerialize(client, sql, rows, now, config);
      return rows;
    }, 'derived');
    total += page.length;
    onProgress?.(total, Math.max(expected, total));
    const last = page[page.length - 1];
    if (last === undefined || page.length < pageSize) return total;
    after = last.customer_id;
  }
}
