// The PostgreSQL server the tests run against (TEST_DATABASE_URL), fresh schemas on it, and an
// administrator connection to look behind the store (drop a schema, inspect tables).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { foldEvents, type HandledEvent } from '@tenure/core';
import { T0 } from '@tenure/store-contract';
import { afterEach, describe } from 'vitest';
import { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from '../src/index.js';
import { MIGRATIONS, migrate } from '../src/internal/migrations.js';

export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'];

if (TEST_DATABASE_URL === undefined) {
  console.warn('store-postgres: TEST_DATABASE_URL is unset, so the PostgreSQL tests are SKIPPED (CI sets it; e.g. postgres://postgres@127.0.0.1:5432/test)');
}

/** `describe`, skipped (with the notice above) when no test database is configured. */
export function describePostgres(name: string, body: () => void): void {
  describe.skipIf(TEST_DATABASE_URL === undefined)(name, body);
}

/** The test database URL; only called inside `describePostgres`. */
export function databaseUrl(): string {
  if (TEST_DATABASE_URL === undefined) throw new Error('TEST_DATABASE_URL is unset');
  return TEST_DATABASE_URL;
}

/** A schema name no other test or run uses. */
export function freshSchema(purpose: string): string {
  return `test_${purpose}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

/** Runs `sql` on a connection of its own, outside any store. */
export async function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return (await client.query<R>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Writes customers into a schema at an older version (4 or later) as that version stored them: each
 * event under its occurrence key then (`occurrenceOf`; none by default), the record folded from the
 * customer's events as an active row, and the customer's own id as its identity.
 */
export async function storeCustomersIn(
  schema: string,
  customers: Iterable<readonly [customer: string, events: readonly HandledEvent[]]>,
  occurrenceOf: (event: HandledEvent) => string | null = () => null,
): Promise<void> {
  for (const [customer, events] of customers) {
    for (const e of events) {
      await adminQuery(`INSERT INTO "${schema}".events (id, occurrence, customer_id, type, event_timestamp_ms, body) VALUES ($1, $2, $3, $4, $5, $6)`, [
        e.id, occurrenceOf(e), customer, e.type, e.event_timestamp_ms, JSON.stringify(e),
      ]);
    }
    await adminQuery(`INSERT INTO "${schema}".subscribers (customer_id, record, state, score, band, assessed_at) VALUES ($1, $2, 'active', 10, 'low', $3)`, [customer, JSON.stringify(foldEvents(events)), T0]);
    await adminQuery(`INSERT INTO "${schema}".identities (id, customer_id) VALUES ($1, $1)`, [customer]);
  }
}

/** Drops a schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  await adminQuery(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
}

/** Opens a store on the test database in `schema`. */
export function openTestStore(schema: string, options: Partial<PostgresStoreOptions> = {}): Promise<PostgresStore> {
  return openPostgresStore({ connectionString: databaseUrl(), schema, poolSize: 4, ...options });
}

/** A test file's schemas and stores: each made here is closed and dropped after the test that made it. */
export interface TestSchemas {
  /** A fresh schema name (`freshSchema`), dropped after the test. */
  schema(purpose: string): string;
  /** `openTestStore`, the store closed after the test. */
  open(schema: string, options?: Partial<PostgresStoreOptions>): Promise<PostgresStore>;
}

/**
 * Registers, in the calling test file, an `afterEach` that closes the stores and drops the schemas
 * made through the returned object.
 *
 * @example
 * const db = testSchemas();
 * it('...', async () => { const store = await db.open(db.schema('purpose')); });
 */
export function testSchemas(): TestSchemas {
  const schemas: string[] = [];
  const stores: PostgresStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    for (const schema of schemas.splice(0)) await dropSchema(schema);
  });
  return {
    schema(purpose) {
      const schema = freshSchema(purpose);
      schemas.push(schema);
      return schema;
    },
    async open(schema, options) {
      const store = await openTestStore(schema, options);
      stores.push(store);
      return store;
    },
  };
}

/** Creates `schema` as a database of an older schema version holds it: its first `version` migrations only. */
export async function schemaAtVersion(schema: string, version: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    const reached = await migrate(client, schema, MIGRATIONS.slice(0, version));
    if (reached !== version) throw new Error(`schema ${schema} reached version ${reached}, not ${version}`);
  } finally {
    await client.end();
  }
}
