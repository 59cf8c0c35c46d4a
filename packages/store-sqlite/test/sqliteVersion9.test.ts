// Schema version 9 (occurrences keyed by store too): a file written by version 7 with the old keys
// (`<type>:<transaction_id>`) upgrades in place; a redelivery of a stored purchase under a new id
// is still a duplicate, and an event of another store with the same transaction id is accepted.
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG } from '@tenure/core';
import { UPGRADE_HISTORY, UPGRADED_KEYS, VERSION_7_KEYS, expectUpgradedOccurrences } from '@tenure/store-contract';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { databaseAtVersion, DAY, storeCustomersAt, T0, tempDbPath } from './helpers.js';

const ctx = { now: T0 + 40 * DAY, config: DEFAULT_CONFIG };

describe('SQLite schema version 9', () => {
  it('a version 7 file upgrades its occurrence keys: redeliveries stay duplicates, another store\u2019s transaction is new', async () => {
    const path = tempDbPath();
    const v7 = databaseAtVersion(path, 7);
    storeCustomersAt(v7, UPGRADE_HISTORY, (e) => VERSION_7_KEYS[e.id] ?? null);
    v7.close();

    const store = await openSqliteStore({ path });
    try {
      const keys = new Database(path, { readonly: true });
      expect(keys.prepare('SELECT id, occurrence FROM events ORDER BY seq').all()).toEqual(UPGRADED_KEYS);
      expect(keys.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      keys.close();
      expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(9);
      await expectUpgradedOccurrences(store, ctx);
    } finally {
      await store.close();
    }
  });
});
