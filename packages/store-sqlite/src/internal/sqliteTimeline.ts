/**
 * One person's timeline from the store's file (found by any of its ids): a range of the `events_timeline` index (customer,
 * event time desc, id desc, schema version 5), so a page reads its own rows whatever the history.
 */
import type Database from 'better-sqlite3';
import type { EventPage, HandledEvent, TimelineQuery } from '@tenure/core';

/** Given an open, migrated database, returns `eventsOf` reading from it. */
export function createSqliteTimeline(db: Database.Database): (customerId: string, query: TimelineQuery) => EventPage {
  const first = db.prepare<[string, number], { body: string }>(
    'SELECT body FROM events WHERE customer_id = ? ORDER BY event_timestamp_ms DESC, id DESC LIMIT ?',
  );
  // A row value compared with a row value is an index range in SQLite (3.15+), not a filter.
  const after = db.prepare<[string, number, string, number], { body: string }>(
    'SELECT body FROM events WHERE customer_id = ? AND (event_timestamp_ms, id) < (?, ?) ORDER BY event_timestamp_ms DESC, id DESC LIMIT ?',
  );
  // Any id of the person names its timeline: its events are stored under the person's key (version 4);
  // an id no identity maps (events without a record) names its own.
  const keyOf = db.prepare<[string], { customer_id: string }>('SELECT customer_id FROM identities WHERE id = ?');
  return (customerId, { limit, before }) => {
    const n = Math.max(0, Math.floor(limit));
    const key = keyOf.get(customerId)?.customer_id ?? customerId;
    const rows = before === undefined ? first.all(key, n + 1) : after.all(key, before.event_timestamp_ms, before.id, n + 1);
    const items = rows.slice(0, n).map((row) => JSON.parse(row.body) as HandledEvent);
    const last = items[items.length - 1];
    return { items, next: rows.length > n && last !== undefined ? { event_timestamp_ms: last.event_timestamp_ms, id: last.id } : null };
  };
}
