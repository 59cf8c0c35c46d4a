// Schema version 5 (the dashboard's timeline, dispatch history and trends): a file written by
// version 3 upgrades in place with its data kept, and the new reads use the new indexes.
import Database from 'better-sqlite3';
import { dailySnapshotOf, utcDayOf, type HandledEvent } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { databaseAtVersion, DAY, event, T0, tempDbPath } from './helpers.js';

describe('SQLite schema version 5', () => {
  it('a version 3 file upgrades in place: events and dispatches kept, and read by customer and time', async () => {
    const path = tempDbPath();
    const v3 = databaseAtVersion(path, 3);
    const events: HandledEvent[] = [
      event('INITIAL_PURCHASE', 'e1', 'u1', T0, { transaction_id: 't1' }),
      event('RENEWAL', 'e2', 'u1', T0 + 30 * DAY, { transaction_id: 't2' }),
      event('CANCELLATION', 'e3', 'u1', T0 + 40 * DAY),
      event('INITIAL_PURCHASE', 'e4', 'u2', T0 + DAY, { transaction_id: 't4' }),
    ];
    const insert = v3.prepare('INSERT INTO events (id, occurrence, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?, ?)');
    for (const e of events) insert.run(e.id, e.type === 'CANCELLATION' ? null : `${e.type}:${String(e['transaction_id'])}`, e.app_user_id, e.type, e.event_timestamp_ms, JSON.stringify(e));
    const dispatch = v3.prepare(
      `INSERT INTO dispatches (at, customer_id, action, urgency, risk_score, channel, outcome, attempt, error, triggered_by) VALUES (?, ?, 'winback', 'immediate', 90, ?, 'sent', 1, NULL, 'batch')`,
    );
    for (let i = 0; i < 6; i++) dispatch.run(T0 + i * DAY, i % 2 === 0 ? 'u1' : 'u2', i % 3 === 0 ? 'email' : 'chat');
    v3.close();

    const store = await openSqliteStore({ path });
    try {
      expect(await store.eventCount()).toBe(4);
      const page = await store.eventsOf('u1', { limit: 2 });
      expect(page.items.map((e) => e.id)).toEqual(['e3', 'e2']);
      expect((await store.eventsOf('u1', { limit: 2, before: page.next! })).items).toEqual([events[0]]);
      const u1 = await store.dispatchLog.list({ limit: 10, customer_id: 'u1' });
      expect(u1.items.map((r) => r.at)).toEqual([T0 + 4 * DAY, T0 + 2 * DAY, T0]);
      expect(await store.dispatchLog.tally(T0 + 3 * DAY)).toEqual(expect.arrayContaining([{ channel: 'email', outcome: 'sent', count: 1 }, { channel: 'chat', outcome: 'sent', count: 2 }]));
      const snapshot = dailySnapshotOf(utcDayOf(T0), T0, 'sweep', {}, { min_score: 60, subscribers: 0, monthly_value_usd: 0 });
      await store.snapshots.put(snapshot);
      expect(await store.snapshots.range(utcDayOf(T0), utcDayOf(T0))).toEqual([snapshot]);
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(5);
    const plan = (sql: string, ...params: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan('SELECT body FROM events WHERE customer_id = ? AND (event_timestamp_ms, id) < (?, ?) ORDER BY event_timestamp_ms DESC, id DESC LIMIT 5', 'u1', T0, 'x')).toMatch(/USING INDEX events_timeline/);
    expect(plan('SELECT * FROM dispatches WHERE customer_id = ? AND id < ? AND at >= ? ORDER BY id DESC LIMIT 5', 'u1', 9, 0)).toMatch(/USING INDEX dispatches_by_customer/);
    expect(plan('SELECT channel, outcome, count(*) FROM dispatches WHERE at >= ? GROUP BY channel, outcome', 0)).toMatch(/COVERING INDEX dispatches_by_at/);
    expect(plan('SELECT body FROM events WHERE customer_id = ? AND (event_timestamp_ms, id) < (?, ?) ORDER BY event_timestamp_ms DESC, id DESC LIMIT 5', 'u1', T0, 'x')).not.toMatch(/TEMP B-TREE/);
    db.close();
  });
});
