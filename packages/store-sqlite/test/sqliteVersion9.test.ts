// Schema version 9 (occurrences keyed by store too): a file written by version 7 with the old keys
// (`<type>:<transaction_id>`) upgrades in place; a redelivery of a stored purchase under a new id
// is still a duplicate, and an event of another store with the same transaction id is accepted.
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG, foldEvents, type HandledEvent } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { databaseAtVersion, DAY, event, T0, tempDbPath } from './helpers.js';

const ctx = { now: T0 + 40 * DAY, config: DEFAULT_CONFIG };

describe('SQLite schema version 9', () => {
  it('a version 7 file upgrades its occurrence keys: redeliveries stay duplicates, another store\u2019s transaction is new', async () => {
    const path = tempDbPath();
    const v7 = databaseAtVersion(path, 7);
    const alice: HandledEvent[] = [
      event('INITIAL_PURCHASE', 'e1', 'alice', T0, { store: 'APP_STORE', transaction_id: 't1', price: 9.99, expiration_at_ms: T0 + 30 * DAY }),
      event('RENEWAL', 'e2', 'alice', T0 + 30 * DAY, { store: 'APP_STORE', transaction_id: 't2', price: 9.99, expiration_at_ms: T0 + 60 * DAY }),
    ];
    const bob: HandledEvent[] = [
      event('NON_RENEWING_PURCHASE', 'e3', 'bob', T0, { transaction_id: 't9', price: 4.99 }), // no store
      event('INITIAL_PURCHASE', 'e4', 'bob', T0 + DAY, { store: 'ODD:STORE', transaction_id: 't4', price: 1.99, expiration_at_ms: T0 + 31 * DAY }),
      // A Play Store renewal sharing alice's App Store transaction id, stored before version 3 and
      // left without a key then (a copy of 'RENEWAL:t2'): a transaction of its own now.
      event('RENEWAL', 'e5', 'bob', T0 + 31 * DAY, { store: 'PLAY_STORE', transaction_id: 't2', price: 1.99, expiration_at_ms: T0 + 61 * DAY }),
    ];
    const oldKeys: Record<string, string | null> = { e1: 'INITIAL_PURCHASE:t1', e2: 'RENEWAL:t2', e3: 'NON_RENEWING_PURCHASE:t9', e4: 'INITIAL_PURCHASE:t4', e5: null };
    const insert = v7.prepare('INSERT INTO events (id, occurrence, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?, ?)');
    const subscriber = v7.prepare(`INSERT INTO subscribers (customer_id, record, state, score, band, assessed_at, rescore_at) VALUES (?, ?, 'active', 10, 'low', ?, NULL)`);
    const identity = v7.prepare('INSERT INTO identities (id, customer_id) VALUES (?, ?)');
    for (const [customer, events] of [['alice', alice], ['bob', bob]] as const) {
      for (const e of events) insert.run(e.id, oldKeys[e.id]!, customer, e.type, e.event_timestamp_ms, JSON.stringify(e));
      subscriber.run(customer, JSON.stringify(foldEvents(events)), T0);
      identity.run(customer, customer);
    }
    v7.close();

    const store = await openSqliteStore({ path });
    try {
      const keys = new Database(path, { readonly: true });
      expect(keys.prepare('SELECT id, occurrence FROM events ORDER BY seq').all()).toEqual([
        { id: 'e1', occurrence: 'INITIAL_PURCHASE:APP_STORE:t1' },
        { id: 'e2', occurrence: 'RENEWAL:APP_STORE:t2' },
        { id: 'e3', occurrence: 'NON_RENEWING_PURCHASE::t9' },
        { id: 'e4', occurrence: 'INITIAL_PURCHASE:ODD%3ASTORE:t4' },
        { id: 'e5', occurrence: 'RENEWAL:PLAY_STORE:t2' },
      ]);
      expect(keys.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      keys.close();
      expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(9);
      expect(await store.get('alice')).toEqual(foldEvents(alice));

      const before = await store.get('alice');
      // The webhook's copy of a stored purchase, under a new event id: one transaction, quietly.
      expect(await store.applyEvent({ ...alice[0]!, id: 'rc-t1' }, ctx)).toEqual({ status: 'duplicate', subscriber: before });
      expect(await store.applyEvent({ ...bob[0]!, id: 'rc-t9' }, ctx)).toEqual({ status: 'duplicate', subscriber: await store.get('bob') });
      // Another customer's delivery of alice's App Store renewal: a duplicate that names its holder.
      expect(await store.applyEvent({ ...alice[1]!, id: 'rc-t2', app_user_id: 'carol', original_app_user_id: 'carol' }, ctx)).toEqual({
        status: 'duplicate',
        subscriber: undefined,
        heldBy: { key: 'RENEWAL:APP_STORE:t2', customer: 'alice' },
      });
      // The same transaction id in another store is another transaction.
      const play = event('INITIAL_PURCHASE', 'rc-play-t1', 'alice', T0 + 2 * DAY, { store: 'PLAY_STORE', transaction_id: 't1', price: 9.99, expiration_at_ms: T0 + 32 * DAY });
      expect(await store.applyEvent(play, ctx)).toMatchObject({ status: 'applied' });
      expect(await store.eventCount()).toBe(6);
      expect(await store.get('alice')).toEqual(foldEvents([...alice, play]));
    } finally {
      await store.close();
    }
  });
});
