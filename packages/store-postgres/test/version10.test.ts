// Schema version 10 on PostgreSQL drops the (customer_id, seq) index of the events: a version 9
// schema upgrades in place, and what read a customer's events through it (a replay, a re-fold on a
// merge of two persons) reads them through the timeline's index with the same result.
import pg from 'pg';
import { DEFAULT_CONFIG } from '@tenure/core';
import { ANON_HISTORY, DAY_MS, T0, expectRefoldsWithoutSeqIndex } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { adminQuery, databaseUrl, describePostgres, schemaAtVersion, storeCustomersIn, testSchemas } from './testDatabase.js';

const db = testSchemas();

const ctx = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };

/** The names of the events table's indexes, sorted. */
const eventIndexes = async (schema: string) =>
  (await adminQuery<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'events' ORDER BY indexname`, [schema])).map((r) => r.indexname);

describePostgres('PostgreSQL schema version 10', () => {
  it('a version 9 schema loses the (customer_id, seq) index; replay and a merge of two persons fold the same events', { timeout: 30_000 }, async () => {
    const schema = db.schema('events_index');
    await schemaAtVersion(schema, 9);
    await storeCustomersIn(schema, [['anon', ANON_HISTORY]]);
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
