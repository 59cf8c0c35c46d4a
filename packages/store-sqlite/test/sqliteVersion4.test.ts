// Schema version 4: a file written by version 3 upgrades in place; its records keep working (each
// its own person, found by the ids its events name), and the next event naming two merges them.
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG, foldByIdentity, foldEvents, type HandledEvent } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { databaseAtVersion, DAY, event, T0, tempDbPath } from './helpers.js';

const ctx = { now: T0 + 40 * DAY, config: DEFAULT_CONFIG };
const ANON = '$RCAnonymousID:ab';

describe('SQLite schema version 4', () => {
  it('a version 3 file upgrades in place: each record its own person, found by its events\u2019 ids, merged by the next event naming two', async () => {
    const path = tempDbPath();
    const v3 = databaseAtVersion(path, 3);
    // Stored by version 3 under two customers: the anonymous purchase, and the identified id's top-up naming the anonymous id.
    const anon: HandledEvent[] = [event('INITIAL_PURCHASE', 'e1', ANON, T0, { original_app_user_id: ANON, aliases: [ANON], price: 9.99, expiration_at_ms: T0 + 30 * DAY })];
    const user: HandledEvent[] = [event('NON_RENEWING_PURCHASE', 'e2', 'user_42', T0 + DAY, { original_app_user_id: ANON, aliases: [ANON, 'user_42'], price: 1.99 })];
    const insert = v3.prepare('INSERT INTO events (id, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?)');
    const subscriber = v3.prepare(`INSERT INTO subscribers (customer_id, record, state, score, band, assessed_at, rescore_at) VALUES (?, ?, 'active', 10, 'low', ?, NULL)`);
    for (const [customer, events] of [[ANON, anon], ['user_42', user]] as const) {
      for (const e of events) insert.run(e.id, e.app_user_id, e.type, e.event_timestamp_ms, JSON.stringify(e));
      const { customer_key: _key, ...record } = foldEvents(events)!; // a record written before the key
      subscriber.run(customer, JSON.stringify(record), T0);
    }
    v3.close();

    const store = await openSqliteStore({ path });
    try {
      expect(await store.count()).toBe(2);
      // The anonymous id is named by both records: the smaller customer id owns it until a merge.
      expect((await store.get(ANON))?.customer_id).toBe(ANON);
      expect((await store.get('user_42'))?.customer_id).toBe('user_42');
      const renewal = event('RENEWAL', 'e3', 'user_42', T0 + 30 * DAY, { original_app_user_id: ANON, aliases: [ANON, 'user_42'], price: 9.99, expiration_at_ms: T0 + 60 * DAY });
      const outcome = await store.applyEvent(renewal, ctx);
      const expected = foldByIdentity([...anon, ...user, renewal]).get('user_42');
      expect(outcome).toEqual({ status: 'applied', subscriber: expected });
      expect(await store.count()).toBe(1);
      expect(await store.get(ANON)).toEqual(expected);
      expect(await store.replay(ctx)).toBe(1);
      expect(await store.get(ANON)).toEqual(expected);
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT id, customer_id FROM identities ORDER BY id').all()).toEqual([
      { id: ANON, customer_id: 'user_42' },
      { id: 'user_42', customer_id: 'user_42' },
    ]);
    expect(db.prepare('SELECT DISTINCT customer_id FROM events').all()).toEqual([{ customer_id: 'user_42' }]);
    db.close();
  });
});
