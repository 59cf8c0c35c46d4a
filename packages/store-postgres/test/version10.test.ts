// Schema version 10 on PostgreSQL drops the (customer_id, seq) index of the events: a version 9
// schema upgrades in place, and what read a customer's events through it (a replay, a re-fold on a
// merge of two persons) reads them through the timeline's index with the same result.
import pg from 'pg';
import { DEFAULT_CONFIG, foldEvents } from '@tenure/core';
import { ANON_HISTORY, DAY_MS, T0, expectRefoldsWithoutSeqIndex } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { adminQuery, databaseUrl, describePostgres, schemaAtVersion, testSchemas } from './testDatabase.js';

const db = testSchemas();

const ctx = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };

/** The names of the events table's indexes, sorted. */
const eventIndexes = async (schema: string) =>
  (await adminQuery<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'events' ORDER BY indexname`, [schema])).map((r) => r.indexname);

describePostgres('PostgreSQL schema version 10', () => {
  it('a version 9 schema loses the (customer_id, seq) index; replay and a merge of two persons fold the same events', { timeout: 30_000 }, async () => {
    const schema = db.schema('events_index');
    await schemaAtVersion(schema, 9);
    for (const e of ANON_HISTORY) {
      await adminQuery(`INSERT INTO "${schema}".events (id, customer_id, type, event_timestamp_ms, body) VALUES ($1, 'anon', $2, $3, $4)`, [
        e.id, e.type, e.event_timestamp_ms, JSON.stringify(e),
      ]);
    }
    await adminQuery(`INSERT INTO "${schema}".subscribers (customer_id, record, state, score, band, assessed_at) VALUES ('anon', $1, 'active', 10, 'low', $2)`, [JSON.stringify(foldEvents(ANON_HISTORY)), T0]);
    await adminQuery(`INSERT INTO "${schema}".identities (id, customer_id) VALUES ('anon', 'anon')`);
    expect(await eventIndexes(schema)).toContain('events_customer_seq');

    const store = await db.open(schema);
    expect(await eventIndexes(schema)).toEqual(['events_id_key', 'events_occurrence', 'events_pkey', 'events_timeline']);
    await expectRefoldsWithoutSeqIndex(store, ctx);

    // With sequential scans off (a small table would otherwise be scanned), a batch of customers'
    // events is found through the timeline's index.
    const c = new pg.Client({ connectionString: databaseUrl() });
    await c.connect();
    try {
      await c.query('SET enable_seqscan = off');
      const { rows } = await c.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT customer_id, body FROM "${schema}".events WHERE customer_id = ANY($1::text[]) ORDER BY customer_id, seq`,
        [['anon', 'user_1']],
      );
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/events_timeline/);
    } finally {
      await c.end();
    }
  });
});
