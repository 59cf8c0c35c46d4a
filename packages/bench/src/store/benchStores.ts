/**
 * The stores the storage benches measure, each opened fresh and disposed of afterwards: the memory
 * store, a SQLite file in a temp directory, and a PostgreSQL schema of its own (dropped after).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SubscriberStore } from '@tenure/core';
import { createMemorySubscriberStore } from '@tenure/server';
import { openPostgresStore } from '@tenure/store-postgres';
import { openSqliteStore } from '@tenure/store-sqlite';

export type StoreKind = 'memory' | 'sqlite' | 'postgres';

export interface BenchStore {
  kind: StoreKind;
  store: SubscriberStore;
  /** PostgreSQL: the schema the store lives in. */
  schema?: string;
  /** Closes the store; the SQLite file is kept (other benches reuse it), a PostgreSQL schema is dropped. */
  dispose(): Promise<void>;
}

/**
 * The PostgreSQL the benches use: BENCH_DATABASE_URL, else TEST_DATABASE_URL (what CI and the tests
 * use); undefined skips the PostgreSQL rows with a notice.
 */
export function benchDatabaseUrl(): string | undefined {
  const url = process.env['BENCH_DATABASE_URL'] ?? process.env['TEST_DATABASE_URL'];
  return url === undefined || url === '' ? undefined : url;
}

/** Prints, once per bench, why the PostgreSQL rows are missing. */
export function noticeNoPostgres(bench: string): void {
  console.log(`${bench}: PostgreSQL rows skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)`);
}

/** A temp directory for this run's SQLite files, removed by `removeBenchDir`. */
let benchDir: string | undefined;
export function benchTempDir(): string {
  benchDir ??= mkdtempSync(join(tmpdir(), 'tenure-bench-'));
  return benchDir;
}
export function removeBenchDir(): void {
  if (benchDir !== undefined) rmSync(benchDir, { recursive: true, force: true });
  benchDir = undefined;
}

/** A schema name no other run uses. */
export function freshSchemaName(purpose: string): string {
  return `bench_${purpose}_${process.pid}_${Date.now().toString(36)}`;
}

/**
 * Runs SQL as an administrator of the bench database (drop a schema, EXPLAIN). `pg` is loaded from
 * where @tenure/store-postgres resolves it, so the bench does not declare a second copy of the driver.
 */
export async function withPg<T>(url: string, run: (query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>) => Promise<T>): Promise<T> {
  const requireFromStore = createRequire(createRequire(import.meta.url).resolve('@tenure/store-postgres/package.json'));
  const { Client } = requireFromStore('pg') as { Client: new (options: { connectionString: string }) => PgClient };
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run((sql) => client.query(sql));
  } finally {
    await client.end();
  }
}
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

/** Drops a bench schema and everything in it. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  await withPg(url, (query) => query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
}

/**
 * Vacuums and analyzes a bench schema's tables, as autovacuum would after a bulk load (a server
 * running with autovacuum off, like the test server here, would otherwise plan with the statistics
 * of empty tables); resolves with the server's `autovacuum` setting.
 */
export async function analyzeSchema(url: string, schema: string): Promise<{ autovacuum: string }> {
  return withPg(url, async (query) => {
    const { rows } = await query(`SELECT tablename FROM pg_tables WHERE schemaname = '${schema}'`);
    for (const row of rows) await query(`VACUUM ANALYZE "${schema}"."${String(row['tablename'])}"`);
    const setting = await query('SHOW autovacuum');
    return { autovacuum: String(setting.rows[0]?.['autovacuum']) };
  });
}

/** Opens a fresh store of `kind` (the SQLite file at `sqlitePath`, PostgreSQL in a new schema). */
export async function openBenchStore(kind: StoreKind, where: { sqlitePath?: string; postgresUrl?: string }): Promise<BenchStore> {
  switch (kind) {
    case 'memory': {
      const store = createMemorySubscriberStore();
      return { kind, store, dispose: () => store.close() };
    }
    case 'sqlite': {
      const path = where.sqlitePath ?? join(benchTempDir(), `store-${Date.now().toString(36)}.db`);
      const store = await openSqliteStore({ path });
      return { kind, store, dispose: () => store.close() };
    }
    case 'postgres': {
      const url = where.postgresUrl;
      if (url === undefined) throw new Error('openBenchStore(postgres) needs a URL');
      const schema = freshSchemaName('store');
      const store = await openPostgresStore({ connectionString: url, schema });
      return {
        kind,
        store,
        schema,
        dispose: async () => {
          await store.close();
          await dropSchema(url, schema);
        },
      };
    }
  }
}
