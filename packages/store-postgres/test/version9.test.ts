// Schema version 9 on PostgreSQL (occurrences keyed by store too): a version 7 schema with the old
// keys (`<type>:<transaction_id>`) upgrades in place; a redelivery of a stored purchase under a new
// id is still a duplicate, and an event of another store with the same transaction id is accepted.
import { DEFAULT_CONFIG, foldEvents } from '@tenure/core';
import { DAY_MS, T0, UPGRADE_HISTORY, UPGRADED_KEYS, VERSION_7_KEYS, expectUpgradedOccurrences } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { adminQuery, describePostgres, schemaAtVersion, testSchemas } from './testDatabase.js';

const db = testSchemas();

const ctx = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };

describePostgres('PostgreSQL schema version 9', () => {
  it('a version 7 schema upgrades its occurrence keys: redeliveries stay duplicates, another store\u2019s transaction is new', { timeout: 30_000 }, async () => {
    const schema = db.schema('occurrence_upgrade');
    await schemaAtVersion(schema, 7);
    for (const [customer, events] of UPGRADE_HISTORY) {
      for (const e of events) {
        await adminQuery(`INSERT INTO "${schema}".events (id, occurrence, customer_id, type, event_timestamp_ms, body) VALUES ($1, $2, $3, $4, $5, $6)`, [
          e.id, VERSION_7_KEYS[e.id], customer, e.type, e.event_timestamp_ms, JSON.stringify(e),
        ]);
      }
      await adminQuery(`INSERT INTO "${schema}".subscribers (customer_id, record, state, score, band, assessed_at) VALUES ($1, $2, 'active', 10, 'low', $3)`, [customer, JSON.stringify(foldEvents(events)), T0]);
      await adminQuery(`INSERT INTO "${schema}".identities (id, customer_id) VALUES ($1, $1)`, [customer]);
    }

    const store = await db.open(schema);
    expect(await adminQuery(`SELECT id, occurrence FROM "${schema}".events ORDER BY seq`)).toEqual(UPGRADED_KEYS);
    expect((await adminQuery<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`)).map((v) => v.version)).toContain(9);
    await expectUpgradedOccurrences(store, ctx);
  });
});
