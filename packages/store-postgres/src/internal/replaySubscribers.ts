/**
 * Rebuilding subscribers from the stored events, a page of customers per transaction, while the
 * store stays in use: each page takes its customers' locks (the ones `writeEvents` takes), so an
 * event arriving meanwhile is either in the events read here or applied after, onto the rebuilt
 * record; never lost.
 */
import { foldEvents, materializeAtRisk, recordActivity, type HandledEvent, type ProgressListener, type TenureConfig } from '@tenure/core';
import type pg from 'pg';
import { RowColumns, UNNEST_ROWS } from './subscriberRows.js';
import type { Tables } from './tables.js';
import { withTransaction } from './withTransaction.js';

/** Customers per transaction: a few thousand events, a few milliseconds of locks. */
const PAGE = 500;

/**
 * Rebuilds every subscriber (and its at-risk row at `now` under `config`) from its events and its
 * reported activity; reports progress after each page; resolves with the number rebuilt.
 */
export async function replaySubscribers(pool: pg.Pool, t: Tables, now: number, config: TenureConfig, onProgress?: ProgressListener): Promise<number> {
  const total = Number((await pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${t.subscribers}`)).rows[0]?.n ?? 0);
  let after = '';
  let done = 0;
  for (;;) {
    const { rows: page } = await pool.query<{ customer_id: string }>(
      `SELECT customer_id FROM ${t.subscribers} WHERE customer_id > $1 ORDER BY customer_id LIMIT $2`,
      [after, PAGE],
    );
    const ids = page.map((r) => r.customer_id);
    if (ids.length === 0) break;
    const rebuilt = await withTransaction(pool, async (client) => {
      await client.query(`SELECT ${t.customerLock('c')} FROM (SELECT c FROM unnest($1::text[]) AS c ORDER BY c COLLATE "C") AS l`, [ids]);
      const events = await client.query<{ customer_id: string; body: HandledEvent }>(
        `SELECT customer_id, body FROM ${t.events} WHERE customer_id = ANY($1::text[]) ORDER BY customer_id, seq`,
        [ids],
      );
      const activity = await client.query<{ customer_id: string; reported_activity_at: number | null }>(
        `SELECT customer_id, reported_activity_at FROM ${t.subscribers} WHERE customer_id = ANY($1::text[]) ORDER BY customer_id FOR UPDATE`,
        [ids],
      );
      const byCustomer = new Map<string, HandledEvent[]>();
      for (const { customer_id, body } of events.rows) {
        const list = byCustomer.get(customer_id);
        if (list === undefined) byCustomer.set(customer_id, [body]);
        else list.push(body);
      }
      const columns = new RowColumns();
      for (const { customer_id, reported_activity_at } of activity.rows) {
        const folded = foldEvents(byCustomer.get(customer_id) ?? []);
        if (folded === undefined) continue; // no stored event: nothing to rebuild from
        const subscriber = reported_activity_at === null ? folded : recordActivity(folded, reported_activity_at);
        columns.push(subscriber, materializeAtRisk(subscriber, now, config).row);
      }
      await client.query(
        `UPDATE ${t.subscribers} AS s SET record = u.record, state = u.state, score = u.score, band = u.band, top_action = u.top_action,
           top_urgency = u.top_urgency, top_reason = u.top_reason, top_priority = u.top_priority, assessed_at = u.assessed_at, rescore_at = u.rescore_at,
           monthly_value_cents = u.monthly_value_cents
         FROM ${UNNEST_ROWS} WHERE s.customer_id = u.customer_id`,
        columns.params(),
      );
      return columns.length;
    });
    done += rebuilt;
    after = ids[ids.length - 1]!;
    onProgress?.(done, Math.max(total, done));
    if (ids.length < PAGE) break;
  }
  return done;
}
