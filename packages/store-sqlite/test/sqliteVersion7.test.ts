// Schema version 7 (a transfer moves its subscriptions' later events too): a file written by
// version 6 upgrades in place with its data kept, and a transfer applied after the upgrade routes
// a late event of the moved subscription to the receiver.
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG, foldEvents, reKeyToReceiver, transferEventSchema, type HandledEvent } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { databaseAtVersion, DAY, event, storeCustomersAt, T0, tempDbPath } from './helpers.js';

const ctx = { now: T0 + 40 * DAY, config: DEFAULT_CONFIG };

describe('SQLite schema version 7', () => {
  it('a version 6 file upgrades in place: its data kept, and a later transfer routes the moved subscription\u2019s late events', async () => {
    const path = tempDbPath();
    const v6 = databaseAtVersion(path, 6);
    const sender: HandledEvent[] = [event('INITIAL_PURCHASE', 'e1', 'u1', T0, { original_transaction_id: 'otx_1', transaction_id: 't1', price: 9.99, expiration_at_ms: T0 + 30 * DAY })];
    const receiver: HandledEvent[] = [event('INITIAL_PURCHASE', 'e2', 'u2', T0 + DAY, { original_transaction_id: 'otx_2', transaction_id: 't2', price: 4.99, expiration_at_ms: T0 + 31 * DAY })];
    storeCustomersAt(v6, [['u1', sender], ['u2', receiver]], (e) => `${e.type}:${String(e['transaction_id'])}`);
    v6.close();

    const store = await openSqliteStore({ path });
    try {
      expect(await store.count()).toBe(2);
      expect(await store.eventCount()).toBe(2);
      expect(await store.get('u1')).toEqual(foldEvents(sender));
      const transfer = transferEventSchema.parse({ type: 'TRANSFER', id: 'tr1', event_timestamp_ms: T0 + 35 * DAY, transferred_from: ['u1'], transferred_to: ['u2'] });
      expect(await store.applyTransfer(transfer, ctx)).toMatchObject({ status: 'applied', moved: 1 });
      const late = event('RENEWAL', 'e3', 'u1', T0 + 30 * DAY, { original_transaction_id: 'otx_1', transaction_id: 't3', price: 9.99, expiration_at_ms: T0 + 60 * DAY });
      const expected = foldEvents([...receiver, ...[...sender, late].map((e) => reKeyToReceiver(e, 'u2'))]);
      expect(await store.applyEvent(late, ctx)).toEqual({ status: 'applied', subscriber: expected });
      expect(await store.get('u1')).toBeUndefined();
      expect(await store.count()).toBe(1);
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(7);
    expect(db.prepare('SELECT original_transaction_id, receiver FROM moved_subscriptions').all()).toEqual([{ original_transaction_id: 'otx_1', receiver: 'u2' }]);
    db.close();
  });

  it('marks a file that held events for one scan of persons stored apart at the next replay, and a new file not', async () => {
    const relinkMark = (path: string) => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare("SELECT value FROM meta WHERE key = 'relink_pending'").get();
      } finally {
        db.close();
      }
    };
    const upgraded = tempDbPath();
    const v6 = databaseAtVersion(upgraded, 6);
    const e = event('INITIAL_PURCHASE', 'e1', 'u1', T0, { price: 9.99, expiration_at_ms: T0 + 30 * DAY });
    v6.prepare('INSERT INTO events (id, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?)').run(e.id, 'u1', e.type, e.event_timestamp_ms, JSON.stringify(e));
    v6.prepare('INSERT INTO identities (id, customer_id) VALUES (?, ?)').run('u1', 'u1');
    v6.close();
    const store = await openSqliteStore({ path: upgraded });
    await store.close();
    expect(relinkMark(upgraded)).toEqual({ value: '1' });
    const again = await openSqliteStore({ path: upgraded });
    try {
      await again.replay(ctx);
    } finally {
      await again.close();
    }
    expect(relinkMark(upgraded)).toBeUndefined(); // scanned once: later replays only rebuild

    const fresh = tempDbPath();
    const created = await openSqliteStore({ path: fresh });
    try {
      await created.applyEvent(e, ctx);
    } finally {
      await created.close();
    }
    expect(relinkMark(fresh)).toBeUndefined();
  });
});
