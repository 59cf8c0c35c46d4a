// Schema version 10 drops the (customer_id, seq) index of the events: a version 9 file upgrades in
// place, and what read a customer's events through it (a replay, a re-fold on a merge of two
// persons) reads them through the timeline's index with the same result.
import { DEFAULT_CONFIG, foldEvents } from '@tenure/core';
import { ANON_HISTORY, expectRefoldsWithoutSeqIndex } from '@tenure/store-contract';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { databaseAtVersion, DAY, eventIndexesOf, T0, tempDbPath } from './helpers.js';

const ctx = { now: T0 + 40 * DAY, config: DEFAULT_CONFIG };

describe('SQLite schema version 10', () => {
  it('a version 9 file loses the (customer_id, seq) index; replay and a merge of two persons fold the same events', async () => {
    const path = tempDbPath();
    const v9 = databaseAtVersion(path, 9);
    const insert = v9.prepare('INSERT INTO events (id, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?)');
    for (const e of ANON_HISTORY) insert.run(e.id, 'anon', e.type, e.event_timestamp_ms, JSON.stringify(e));
    v9.prepare(`INSERT INTO subscribers (customer_id, record, state, score, band, assessed_at, rescore_at) VALUES ('anon', ?, 'active', 10, 'low', ?, NULL)`).run(JSON.stringify(foldEvents(ANON_HISTORY)), T0);
    v9.prepare("INSERT INTO identities (id, customer_id) VALUES ('anon', 'anon')").run();
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
