// Schema version 9 on PostgreSQL (occurrences keyed by store too): a version 7 schema with the old
// keys (`<type>:<transaction_id>`) upgrades in place; a redelivery of a stored purchase under a new
// id is still a duplicate, and an event of another store with the same transaction id is accepted.
import { DEFAULT_CONFIG } from '@tenure/core';
import { DAY_MS, T0, UPGRADE_HISTORY, UPGRADED_KEYS, VERSION_7_KEYS, expectUpgradedOccurrences } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { adminQuery, describePostgres, schemaAtVersion, storeCustomersIn, testSchemas } from './testDatabase.js';

const db = testSchemas();

const ctx = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };

describePostgres('PostgreSQL schema version 9', () => {
  it('a version 7 schema upgrades its occurrence keys: redeliveries stay duplicates, another store\u2019s transaction is new', { timeout: 30_000 }, async () => {
    const schema = db.schema('occurrence_upgrade');
    await schemaAtVersion(schema, 7);
    await storeCustomersIn(schema, UPGRADE_HISTORY, (e) => VERSION_7_KEYS[e.id] ?? null);

    const store = await db.open(schema);
    expect(await adminQuery(`SELECT id, occurrence FROM "${schema}".events ORDER BY seq`)).toEqual(UPGRADED_KEYS);
    expect((await adminQuery<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`)).map((v) => v.version)).toContain(9);
    await expectUpgradedOccurrences(store, ctx);
  });
});
