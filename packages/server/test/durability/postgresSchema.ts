/**
 * A fresh PostgreSQL schema per test, on the server named by TEST_DATABASE_URL: `tenure serve` gets
 * it as `postgres://…?schema=NAME` (tenure's own parameter, see `parseStoreSpec`), creates it on
 * start, and the test drops it after.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** TEST_DATABASE_URL, or undefined (the PostgreSQL tests are then skipped with a visible notice). */
export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] || undefined;

/** Prints why PostgreSQL tests are skipped, once per file that has them. */
export function warnIfNoPostgres(what: string): void {
  if (TEST_DATABASE_URL === undefined) console.warn(`[durability] TEST_DATABASE_URL is not set: SKIPPING ${what} (CI sets it; see docs/storage.md)`);
}

export interface TestSchema {
  name: string;
  /** The store spec for `tenure serve --store`. */
  spec: string;
  /** Runs one statement on the test database (outside the schema's own connections). */
  query(sql: string): Promise<pg.QueryResult>;
  drop(): Promise<void>;
}

/** Returns a schema name nobody else uses (the store creates it) and how to drop it. */
export function testSchema(label: string): TestSchema {
  if (TEST_DATABASE_URL === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const name = `tenure_${label}_${randomBytes(5).toString('hex')}`;
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('schema', name);
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    name,
    spec: url.toString(),
    query,
    // `tenure serve` also creates the sandbox namespace beside it (sandboxStoreSpec).
    drop: async () => void (await query(`DROP SCHEMA IF EXISTS "${name}" CASCADE; DROP SCHEMA IF EXISTS "${name}_sandbox" CASCADE`)),
  };
}
