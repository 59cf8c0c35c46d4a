// Schema version 3: checkpoints are durable in the file, one transaction counts once whatever ids
// deliver it, and a file written by version 2 upgrades in place with its data kept.
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG, type HandledEvent } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { databaseAtVersion, DAY, event, T0, tempDbPath } from './helpers.js';

const ctx = { now: T0 + 90 * DAY, config: DEFAULT_CONFIG };

describe('SQLite schema version 3', () => {
  it('checkpoints survive closing and reopening the file', async () => {
    const path = tempDbPath();
    const first = await openSqliteStore({ path });
    await first.checkpoints.set('backfill:proj1', '{"starting_after":"cus_42"}');
    await first.checkpoints.set('gone', 'x');
    await first.checkpoints.delete('gone');
    await first.close();
    const second = await openSqliteStore({ path });
    try {
      expect(await second.checkpoints.get('backfill:proj1')).toBe('{"starting_after":"cus_42"}');
      expect(await second.checkpoints.get('gone')).toBeUndefined();
    } finally {
      await second.close();
    }
  });

  it('a version 2 file upgrades in place: data kept, the first delivery of each transaction owns it, replay counts it once', async () => {
    const path = tempDbPath();
    const v2 = databaseAtVersion(path, 2);
    // Version 2 deduplicated by id only: the import's and the webhook's copy of one renewal are both stored.
    const events: HandledEvent[] = [
      event('INITIAL_PURCHASE', 'export:al1:INITIAL_PURCHASE', 'u1', T0, { transaction_id: 'al1' }),
      event('RENEWAL', 'export:al2:RENEWAL', 'u1', T0 + 30 * DAY, { transaction_id: 'al2' }),
      event('RENEWAL', 'rc-al2', 'u1', T0 + 30 * DAY, { transaction_id: 'al2' }),
    ];
    const insert = v2.prepare('INSERT INTO events (id, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?)');
    for (const e of events) insert.run(e.id, e.app_user_id, e.type, e.event_timestamp_ms, JSON.stringify(e));
    const record = { customer_id: 'u1', state: 'active', state_key: null, product_id: 'pro_monthly', product_key: null, period_ends_at: null, period_key: null, billing_failures: 0, renewals: 2, trial_started_at: null, trial_ends_at: null, trial_key: null, trial_converted_at: null, conversion_key: null, last_activity_at: T0, first_event_at: T0, last_event_at: T0 + 30 * DAY, event_count: 3 };
    v2.prepare(`INSERT INTO subscribers (customer_id, record, state, score, band, assessed_at, rescore_at) VALUES ('u1', ?, 'active', 10, 'low', ?, NULL)`).run(JSON.stringify(record), T0);
    v2.close();

    const store = await openSqliteStore({ path });
    try {
      expect((await store.get('u1'))?.renewals).toBe(2); // as stored, until replayed
      expect(await store.eventCount()).toBe(3);
      await store.replay(ctx);
      expect((await store.get('u1'))?.renewals).toBe(1);
      const again = await store.applyEvent(event('RENEWAL', 'rc-al2-retry-elsewhere', 'u1', T0 + 30 * DAY, { transaction_id: 'al2' }), ctx);
      expect(again.status).toBe('duplicate');
      expect((await store.applyEvent(event('RENEWAL', 'rc-al3', 'u1', T0 + 60 * DAY, { transaction_id: 'al3' }), ctx)).status).toBe('applied');
      expect((await store.get('u1'))?.renewals).toBe(2);
      await store.checkpoints.set('backfill:p', 'cus_1');
      expect(await store.checkpoints.get('backfill:p')).toBe('cus_1');
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT id, occurrence FROM events ORDER BY seq').all()).toEqual([
      { id: 'export:al1:INITIAL_PURCHASE', occurrence: 'INITIAL_PURCHASE::al1' },
      { id: 'export:al2:RENEWAL', occurrence: 'RENEWAL::al2' },
      { id: 'rc-al2', occurrence: null },
      { id: 'rc-al3', occurrence: 'RENEWAL::al3' },
    ]);
    db.close();
  });
});
