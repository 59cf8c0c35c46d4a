/**
 * TRANSFER on PostgreSQL (docs/rules.md §2), in one transaction: the transfer id is kept
 * (`transfers`, schema version 3: a repeat, also from another replica at the same moment, is a
 * duplicate), the receiver's and senders' customer locks are taken (the ones `writeEvents` takes,
 * in id order), every event of each sender is re-keyed to the receiver (`customer_id` and the
 * body's `app_user_id`, so replay and export reproduce the move), the senders' subscribers are
 * deleted (the totals' triggers follow) and the receiver is folded again from its events with the
 * latest reported activity of all.
 */
import { compareIds, foldEvents, materializeAtRisk, recordActivity, transferOf, type HandledEvent, type StoreContext, type Subscriber, type TransferEvent, type TransferOutcome } from '@tenure/core';
import type pg from 'pg';
import { RowColumns, UNNEST_ROWS } from './subscriberRows.js';
import type { Tables } from './tables.js';

/** Inside an open transaction on `client`: applies the transfer and resolves with what it did. */
export async function transferCustomers(client: pg.ClientBase, t: Tables, event: TransferEvent, { now, config }: StoreContext): Promise<TransferOutcome> {
  const kept = await client.query(`INSERT INTO ${t.transfers} (id, event_timestamp_ms, body) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [
    event.id,
    event.event_timestamp_ms,
    JSON.stringify(event),
  ]);
  if (kept.rowCount === 0) return { status: 'duplicate' };
  const { from, to } = transferOf(event);
  const receiver = to[0];
  if (receiver === undefined) return { status: 'applied', receiver, moved: 0, subscriber: undefined };
  const ids = [receiver, ...from].sort(compareIds);
  await client.query(`SELECT ${t.customerLock('c')} FROM (SELECT c FROM unnest($1::text[]) AS c ORDER BY c COLLATE "C") AS l`, [ids]);
  const { rows } = await client.query<{ customer_id: string; record: Subscriber; reported_activity_at: number | null }>(
    `SELECT customer_id, record, reported_activity_at FROM ${t.subscribers} WHERE customer_id = ANY($1::text[]) ORDER BY customer_id FOR UPDATE`,
    [ids],
  );
  const target = rows.find((r) => r.customer_id === receiver);
  const senders = rows.filter((r) => r.customer_id !== receiver).map((r) => r.customer_id);
  if (senders.length === 0) return { status: 'applied', receiver, moved: 0, subscriber: target?.record };
  const moved = await client.query(
    `UPDATE ${t.events} SET customer_id = $1, body = jsonb_set(body::jsonb, '{app_user_id}', to_jsonb($1::text))::json WHERE customer_id = ANY($2::text[])`,
    [receiver, senders],
  );
  await client.query(`DELETE FROM ${t.subscribers} WHERE customer_id = ANY($1::text[])`, [senders]);
  const reports = rows.flatMap((r) => (r.reported_activity_at === null ? [] : [r.reported_activity_at]));
  const reported = reports.length === 0 ? null : Math.max(...reports);
  const events = await client.query<{ body: HandledEvent }>(`SELECT body FROM ${t.events} WHERE customer_id = $1 ORDER BY seq`, [receiver]);
  const folded = foldEvents(events.rows.map((r) => r.body))!; // at least one event moved
  const subscriber = reported === null ? folded : recordActivity(folded, reported);
  const columns = new RowColumns();
  columns.push(subscriber, materializeAtRisk(subscriber, now, config).row);
  await client.query(
    `INSERT INTO ${t.subscribers} AS s (customer_id, record, state, score, band, top_action, top_urgency, top_reason, top_priority, assessed_at, rescore_at, monthly_value_cents)
     SELECT * FROM ${UNNEST_ROWS}
     ON CONFLICT (customer_id) DO UPDATE SET
       record = excluded.record, state = excluded.state, score = excluded.score, band = excluded.band,
       top_action = excluded.top_action, top_urgency = excluded.top_urgency, top_reason = excluded.top_reason,
       top_priority = excluded.top_priority, assessed_at = excluded.assessed_at, rescore_at = excluded.rescore_at,
       monthly_value_cents = excluded.monthly_value_cents`,
    columns.params(),
  );
  if (reported !== null) await client.query(`UPDATE ${t.subscribers} SET reported_activity_at = $1 WHERE customer_id = $2`, [reported, receiver]);
  return { status: 'applied', receiver, moved: moved.rowCount ?? 0, subscriber };
}
