// Opening the store: migrations (concurrent starts, reopen, failures) and the one-line errors a
// start stops with.
import { createServer, type Server } from 'node:net';
import { DEFAULT_CONFIG, type StoreContext } from '@tenure/core';
import { DAY_MS, T0, buildEvent, collect } from '@tenure/store-contract';
import { afterEach, expect, it } from 'vitest';
import { openPostgresStore, PostgresStoreError, type PostgresStore } from '../src/index.js';
import { MIGRATIONS } from '../src/internal/migrations.js';
import { adminQuery, databaseUrl, describePostgres, dropSchema, freshSchema, openTestStore } from './testDatabase.js';

const ctx: StoreContext = { now: T0 + DAY_MS, config: DEFAULT_CONFIG };

const schemas: string[] = [];
const stores: PostgresStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  for (const schema of schemas.splice(0)) await dropSchema(schema);
});
const schemaFor = (purpose: string) => {
  const schema = freshSchema(purpose);
  schemas.push(schema);
  return schema;
};
const open = async (schema: string) => {
  const store = await openTestStore(schema);
  stores.push(store);
  return store;
};

/** Resolves with the error `promise` rejects with (fails the test if it resolves). */
const rejection = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
};

describePostgres('openPostgresStore', () => {
  it('migrates a fresh schema once when several replicas start at the same moment', { timeout: 30_000 }, async () => {
    const schema = schemaFor('concurrent_open');
    const replicas = await Promise.all(Array.from({ length: 4 }, () => open(schema)));
    expect(replicas.map((s) => s.kind)).toEqual(['postgres', 'postgres', 'postgres', 'postgres']);
    expect(await adminQuery(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`)).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    await replicas[0]!.applyEvent(buildEvent('INITIAL_PURCHASE', 'e1', 'alice', T0), ctx);
    expect(await replicas[3]!.count()).toBe(1);
  });

  it('keeps events, subscribers, activity, the dispatch log and cooldowns across a reopen', { timeout: 30_000 }, async () => {
    const schema = schemaFor('reopen');
    const first = await openTestStore(schema);
    await first.applyEvents([buildEvent('INITIAL_PURCHASE', 'e1', 'alice', T0), buildEvent('BILLING_ISSUE', 'e2', 'alice', T0 + 1)], ctx);
    await first.recordActivity('alice', T0 + 5, ctx);
    const record = await first.dispatchLog.append({
      at: T0, customer_id: 'alice', action: 'payment_update', urgency: 'immediate', risk_score: 90,
      channel: 'chat', outcome: 'sent', attempt: 1, error: null, trigger: 'webhook',
    });
    expect(await first.dispatchLog.claimCooldown('alice|payment_update|chat', T0, DAY_MS)).toBe(true);
    const page = await first.atRisk({ limit: 10 }, ctx);
    const records = await collect(first.records());
    await first.close();

    const again = await open(schema);
    expect(await again.get('alice')).toEqual(page.items[0]?.subscriber);
    expect(await collect(again.records())).toEqual(records);
    expect(await again.atRisk({ limit: 10 }, ctx)).toEqual(page);
    expect((await again.dispatchLog.list({ limit: 10 })).items).toEqual([record]);
    expect(await again.dispatchLog.claimCooldown('alice|payment_update|chat', T0 + DAY_MS - 1, DAY_MS)).toBe(false);
    expect((await again.dispatchLog.append({ ...record, at: T0 + 1 })).id).toBeGreaterThan(record.id);
  });

  it('works in a schema whose name needs quoting', { timeout: 30_000 }, async () => {
    const schema = `${schemaFor('quoted')} "it's" Ünïcode`;
    schemas.push(schema);
    const store = await open(schema);
    await store.applyEvent(buildEvent('INITIAL_PURCHASE', 'e1', 'alice', T0), ctx);
    expect(await collect(store.records())).toHaveLength(1);
    expect(store.schema).toBe(schema);
  });

  it('stops with one line naming the failed migration', { timeout: 30_000 }, async () => {
    const schema = schemaFor('failed_migration');
    await adminQuery(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".events (something int)`);
    const error = await rejection(openTestStore(schema));
    expect(error).toBeInstanceOf(PostgresStoreError);
    expect(error.message).toBe(
      `PostgreSQL migration 1 (event log, subscribers with their at-risk rows, meta, dispatch log, cooldowns) of schema ${schema} failed: relation "events" already exists`,
    );
    // Nothing of the failed step stays behind: a fixed schema then migrates.
    expect(await adminQuery(`SELECT version FROM "${schema}".schema_migrations`)).toEqual([]);
    await adminQuery(`DROP TABLE "${schema}".events`);
    await open(schema);
  });

  it('refuses a schema migrated by a newer tenure', { timeout: 30_000 }, async () => {
    const schema = schemaFor('newer');
    await (await openTestStore(schema)).close();
    await adminQuery(`INSERT INTO "${schema}".schema_migrations (version, name) VALUES (99, 'from the future')`);
    const error = await rejection(openTestStore(schema));
    expect(error.message).toBe(`schema ${schema} is at version 99, newer than this tenure knows (${Math.max(...MIGRATIONS.map((m) => m.version))}): upgrade tenure`);
  });

  it('names a database that does not exist', { timeout: 30_000 }, async () => {
    const url = new URL(databaseUrl());
    url.pathname = '/no_such_database_for_tenure';
    const error = await rejection(openPostgresStore({ connectionString: url.toString() }));
    expect(error.message).toBe(`PostgreSQL at ${url.hostname}:${url.port || '5432'} has no database "no_such_database_for_tenure"`);
  });
});

// These need no database: nothing listens where they point.
it('stops with one line when nothing listens at the address', async () => {
  const started = Date.now();
  const error = await rejection(openPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:5999/test' }));
  expect(error).toBeInstanceOf(PostgresStoreError);
  expect(error.message).toBe('cannot reach PostgreSQL at 127.0.0.1:5999: connection refused (is PostgreSQL running and listening there?)');
  expect(Date.now() - started).toBeLessThan(5000);
});

it('gives up after the connect timeout when the server never answers', { timeout: 10_000 }, async () => {
  // A server that accepts connections and says nothing, like a host behind a black-holing firewall.
  const silent: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as { port: number };
  try {
    const started = Date.now();
    const error = await rejection(openPostgresStore({ connectionString: `postgres://postgres@127.0.0.1:${port}/test`, connectTimeoutMs: 300 }));
    expect(error.message).toBe(`cannot reach PostgreSQL at 127.0.0.1:${port}: no answer within 0.3 s`);
    expect(Date.now() - started).toBeLessThan(3000);
  } finally {
    silent.close();
  }
});

it('stops with one line for a malformed URL, without showing its password', async () => {
  const error = await rejection(openPostgresStore({ connectionString: 'postgres://app:s3cret@db:notaport/tenure' }));
  expect(error).toBeInstanceOf(PostgresStoreError);
  expect(error.message).toBe('malformed PostgreSQL URL "postgres://app:***@db:notaport/tenure": expected postgres://user[:password]@host[:port]/database');
  expect((await rejection(openPostgresStore({ connectionString: 'mysql://db/tenure' }))).message).toBe(
    'malformed PostgreSQL URL "mysql://db/tenure": the scheme is mysql, expected postgres://user[:password]@host[:port]/database',
  );
});
