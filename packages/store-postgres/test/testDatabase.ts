// The PostgreSQL server the tests run against (TEST_DATABASE_URL), fresh schemas on it, and an
// administrator connection to look behind the store (drop a schema, inspect tables).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';
import { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from '../src/index.js';

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

/** Drops a schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  await adminQuery(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
}

/** Opens a store on the test database in `schema`. */
export function openTestStore(schema: string, options: Partial<PostgresStoreOptions> = {}): Promise<PostgresStore> {
  return openPostgresStore({ connectionString: databaseUrl(), schema, poolSize: 4, ...options });
}
