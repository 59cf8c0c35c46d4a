/**
 * One customer's timeline: a range of the `events_timeline` index (customer, event time desc, id
 * desc, schema version 5), so a page reads its own rows whatever the history. Any id of the person
 * names its timeline (its events are stored under the person's key, version 4).
 */
import type { EventPage, HandledEvent, TimelineQuery } from '@tenure/core';
import type pg from 'pg';
import type { Tables } from './tables.js';

/** Given a pool, the tables, a customer id and a query, resolves with the page of that customer's events, newest first. */
export async function readTimeline(pool: pg.Pool, t: Tables, customerId: string, { limit, before }: TimelineQuery): Promise<EventPage> {
  const n = Math.max(0, Math.floor(limit));
  // The row comparison is an index condition on (event_timestamp_ms, id) in the index's order.
  const { rows } =
    before === undefined
      ? await pool.query<{ body: HandledEvent }>(
          `SELECT body FROM ${t.events} WHERE customer_id = COALESCE((SELECT customer_id FROM ${t.identities} WHERE id = $1), $1) ORDER BY event_timestamp_ms DESC, id DESC LIMIT $2`,
          [customerId, n + 1],
        )
      : await pool.query<{ body: HandledEvent }>(
          `SELECT body FROM ${t.events} WHERE customer_id = COALESCE((SELECT customer_id FROM ${t.identities} WHERE id = $1), $1) AND (event_timestamp_ms, id) < ($2, $3)
           ORDER BY event_timestamp_ms DESC, id DESC LIMIT $4`,
          [customerId, before.event_timestamp_ms, before.id, n + 1],
        );
  const items = rows.slice(0, n).map((row) => row.body);
  const last = items[items.length - 1];
  return { items, next: rows.length > n && last !== undefined ? { event_timestamp_ms: last.event_timestamp_ms, id: last.id } : null };
}
