// GET /ready, the readiness probe a load balancer asks: 200 while the stores answer, 503 with the
// reason when a store fails (a SQLite file closed under the service), hangs (a PostgreSQL table
// locked by another session) or the service shuts down. /health (liveness) stays 200 throughout.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SubscriberStore } from '@tenure/core';
import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { closeRetentionApp, createRetentionApp } from '../src/index.js';
import { notReadyResponseSchema, readyResponseSchema } from '../src/api/schemas.js';
import { openStore, parseStoreSpec } from '../src/store/openStore.js';
import { TEST_DATABASE_URL, testSchema, warnIfNoPostgres } from './durability/postgresSchema.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Serves a retention app over `store` on a free port; returns its URL and the app. */
async function serve(store: SubscriberStore) {
  const app = createRetentionApp({ store, logger: pino({ level: 'silent' }), sweepIntervalMs: 3_600_000 });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { app, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

warnIfNoPostgres('the readiness probe over a locked PostgreSQL table');

describe('GET /ready', () => {
  it('is 200 while a SQLite store answers, 503 naming the failure once the file is closed under it; /health stays 200', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenure-ready-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const spec = parseStoreSpec(`sqlite:${join(dir, 'tenure.db')}`);
    if (!spec.ok) throw new Error(spec.error);
    const store = await openStore(spec.spec);
    const { url } = await serve(store);

    const ready = await get(`${url}/ready`);
    expect(ready).toEqual({ status: 200, body: { status: 'ready', service: 'tenure' } });
    expect(() => readyResponseSchema.strict().parse(ready.body)).not.toThrow();

    await store.close();
    const down = await get(`${url}/ready`);
    expect(down.status).toBe(503);
    expect(() => notReadyResponseSchema.strict().parse(down.body)).not.toThrow();
    expect(down.body['reason']).toMatch(/^the store failed: .+/);
    expect((await get(`${url}/health`)).status).toBe(200);
  });

  it('is 503 "shutting down" from the moment the service starts closing', async () => {
    const store = await openStore({ kind: 'memory' });
    const { app, url } = await serve(store);
    expect((await get(`${url}/ready`)).status).toBe(200);
    await closeRetentionApp(app);
    expect(await get(`${url}/ready`)).toEqual({ status: 503, body: { status: 'not_ready', service: 'tenure', reason: 'shutting down' } });
  });

  it.skipIf(TEST_DATABASE_URL === undefined)('is 503 when PostgreSQL does not answer in time (a table locked by another session), 200 again once it does', async () => {
    const schema = testSchema('ready');
    cleanups.push(schema.drop);
    const spec = parseStoreSpec(schema.spec);
    if (!spec.ok) throw new Error(spec.error);
    const store = await openStore(spec.spec);
    cleanups.push(() => store.close());
    const { url } = await serve(store);
    expect((await get(`${url}/ready`)).status).toBe(200);

    const locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
    cleanups.push(() => locker.end());
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE "${schema.name}".subscribers IN ACCESS EXCLUSIVE MODE`);
    const started = Date.now();
    const hung = await get(`${url}/ready`);
    expect(hung.status).toBe(503);
    expect(hung.body['reason']).toBe('the store or the sandbox store did not answer within 2000 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    await locker.query('ROLLBACK');
    expect((await get(`${url}/ready`)).status).toBe(200);
  });
});
