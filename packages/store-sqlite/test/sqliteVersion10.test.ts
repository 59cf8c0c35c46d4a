// Schema version 10 drops the (customer_id, seq) index of the events: a version 9 file upgrades in
// place, and what read a customer's events through it (a replay, a re-fold on a merge of two
// persons) reads them through the timeline's index with the same result.
import { DEFAULT_CONFIG } from '@tenure/core';
import { ANON_HISTORY, expectRefoldsWithoutSeqIndex } from '@tenure/store-contract';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { databaseAtVersion, DAY, eventIndexesOf, storeCustomersAt, T0, tempDbPath } from './helpers.js';

const ctx = { now: T0 + 40 * DAY, config: DEFAULT_CONFIG };

describe('SQLite schema version 10', () => {
  it('a version 9 file loses the (customer_id, seq) index; replay and a merge of two persons fold the same events', async () => {
    const path = tempDbPath();
    const v9 = databaseAtVersion(path, 9);
    storeCustomersAt(v9, [['anon', ANON_HISTORY]]);
    v9.close();
    expect(eventIndexesOf(path)).toEqual(['events_by_customer', 'events_occurrence', 'events_timeline']);

    const store = await openSqliteStore({ path });
    try {
      expect(eventIndexesOf(path)).toEqual(['events_occurrence', 'events_timeline']);
      expect(SCHEMA_VERSION).toBe(10);
      await expectRefoldsWithoutSeqIndex(store, ctx);
    } finally {
      await store.close();
    }
  });
});
