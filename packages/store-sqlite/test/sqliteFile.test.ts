// The file itself: what survives reopening, two connections on one file, migrations and open errors.
import { closeSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, openSqliteStore } from '../src/index.js';
import { DAY, T0, event, tempDbPath } from './helpers.js';

const ctx = { now: T0, config: DEFAULT_CONFIG };
const dispatch = { at: T0, customer_id: 'u1', action: 'winback', urgency: 'immediate', risk_score: 95, channel: 'chat', outcome: 'sent', attempt: 1, error: null, trigger: 'webhook' } as const;

describe('the SQLite file', () => {
  it('creates the missing parent directories of its path', async () => {
    const path = join(dirname(tempDbPath()), 'a', 'b', 'tenure.db');
    const store = await openSqliteStore({ path });
    await store.applyEvent(event('BILLING_ISSUE', 'e1', 'u1', T0), ctx);
    await store.close();
    expect(new Database(path, { readonly: true }).prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 1 });
  });

  it('keeps subscribers, rows, activity, the dispatch log and cooldowns across reopening', async () => {
    const path = tempDbPath();
    const first = await openSqliteStore({ path });
    const applied = await first.applyEvent(event('BILLING_ISSUE', 'e1', 'u1', T0), ctx);
    await first.recordActivity('u1', T0 + DAY, ctx);
    const record = await first.dispatchLog.append(dispatch);
    expect(await first.dispatchLog.claimCooldown('u1|winback', T0, DAY)).toBe(true);
    const page = await first.atRisk({ limit: 5 }, ctx);
    await first.close();

    const second = await openSqliteStore({ path });
    try {
      expect(await second.get('u1')).toEqual({ ...applied.subscriber, last_activity_at: T0 + DAY });
      expect(await second.atRisk({ limit: 5 }, ctx)).toEqual(page);
      expect(await second.eventCount()).toBe(1);
      expect((await second.dispatchLog.list({ limit: 10 })).items).toEqual([record]);
      expect(await second.dispatchLog.claimCooldown('u1|winback', T0 + DAY - 1, DAY)).toBe(false);
      expect((await second.dispatchLog.append(dispatch)).id).toBeGreaterThan(record.id);
    } finally {
      await second.close();
    }
  });

  it('two connections on one file: the same event id is applied by one and a duplicate for the other', async () => {
    const path = tempDbPath();
    const [a, b] = await Promise.all([openSqliteStore({ path }), openSqliteStore({ path })]);
    try {
      const e = event('BILLING_ISSUE', 'e1', 'u1', T0);
      const outcomes = await Promise.all([a.applyEvent(e, ctx), b.applyEvent(e, ctx)]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['applied', 'duplicate']);
      expect((await b.get('u1'))?.billing_failures).toBe(1);
      // Each sees the other's writes: events for one customer through both connections add up.
      await a.applyEvent(event('BILLING_ISSUE', 'e2', 'u1', T0 + 1), ctx);
      await b.applyEvent(event('BILLING_ISSUE', 'e3', 'u1', T0 + 2), ctx);
      expect((await a.get('u1'))?.billing_failures).toBe(3);
      const claims = await Promise.all([a.dispatchLog.claimCooldown('k', T0, DAY), b.dispatchLog.claimCooldown('k', T0, DAY)]);
      expect(claims.sort()).toEqual([false, true]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('migrates once: opening again finds the schema current and changes nothing', async () => {
    const path = tempDbPath();
    await (await openSqliteStore({ path })).close();
    const db = new Database(path);
    const schema = db.prepare('SELECT name, sql FROM sqlite_schema ORDER BY name').all();
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    await (await openSqliteStore({ path })).close();
    const again = new Database(path, { readonly: true });
    expect(again.prepare('SELECT name, sql FROM sqlite_schema ORDER BY name').all()).toEqual(schema);
    again.close();
  });

  it('refuses a file written by a newer schema, saying so in one line', async () => {
    const path = tempDbPath();
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const error = await openSqliteStore({ path }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      `SQLite store at ${path} has schema version ${SCHEMA_VERSION + 1}, newer than this version of tenure supports (${SCHEMA_VERSION}); upgrade tenure to open it`,
    );
  });

  it.each([
    ['a directory', (dir: string) => dir, /: it is a directory$/],
    ['a path under a regular file', (dir: string) => (writeFileSync(join(dir, 'file'), 'x'), join(dir, 'file', 'tenure.db')), /exists and is not a directory$/],
    ['a file that is not a database', (dir: string) => (writeFileSync(join(dir, 'junk.db'), 'not sqlite at all, '.repeat(300)), join(dir, 'junk.db')), /: file is not a database \(SQLITE_NOTADB\)$/],
  ])('rejects %s with one line naming the path and the reason', async (_, makePath, reason) => {
    const dir = dirname(tempDbPath());
    mkdirSync(dir, { recursive: true });
    const path = makePath(dir);
    const error = (await openSqliteStore({ path }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message.startsWith(`Cannot open the SQLite store at ${path}: `)).toBe(true);
    expect(error.message).toMatch(reason);
    expect(error.message).not.toContain('\n');
  });

  it('checkpoints the WAL into the file in the background while open, and folds it in on close', async () => {
    const path = tempDbPath();
    const store = await openSqliteStore({ path });
    const before = statSync(path).size;
    await store.applyEvents(
      Array.from({ length: 3000 }, (_, i) => event('BILLING_ISSUE', `e${i}`, `u${i}`, T0)),
      ctx,
    );
    // The connection's own automatic checkpoint is off: only the worker moves pages into the file.
    const deadline = Date.now() + 10_000;
    while (statSync(path).size <= before + 500_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(statSync(path).size).toBeGreaterThan(before + 500_000);
    await store.close();
    expect(statSync(`${path}-wal`, { throwIfNoEntry: false })).toBeUndefined();
  });

  it('starts the WAL over while webhooks keep coming, so it stops growing', async () => {
    // A passive checkpoint alone never lets the WAL rewind when a commit lands during every pass:
    // it grew by every commit (1 GB in 12 s of ingest). The WAL header's checkpoint sequence
    // (bytes 12..15) counts the times it started over.
    const path = tempDbPath();
    const store = await openSqliteStore({ path });
    const restarts = () => {
      const header = Buffer.alloc(16);
      const fd = openSync(`${path}-wal`, 'r');
      try {
        return readSync(fd, header, 0, 16, 0) === 16 ? header.readUInt32BE(12) : 0;
      } finally {
        closeSync(fd);
      }
    };
    try {
      let n = 0;
      let first: number | undefined;
      const deadline = Date.now() + 20_000;
      // Back to back: the next batch is submitted the moment the last one is committed.
      while (Date.now() < deadline) {
        await Promise.all(Array.from({ length: 50 }, () => (n += 1, store.applyEvent(event('RENEWAL', `e${n}`, `u${(n * 7919) % 20_000}`, T0 + n, { transaction_id: `t${n}` }), ctx))));
        first ??= restarts();
        if (restarts() >= first + 3) break;
      }
      expect(restarts()).toBeGreaterThanOrEqual(first! + 3);
      expect(await store.eventCount()).toBe(n);
    } finally {
      await store.close();
    }
  }, 30_000);

  it('backs up to another file while open, and the copy opens as a store', async () => {
    const path = tempDbPath();
    const store = await openSqliteStore({ path });
    await store.applyEvent(event('BILLING_ISSUE', 'e1', 'u1', T0), ctx);
    const copyPath = join(dirname(path), 'copy.db');
    await store.backup(copyPath);
    await store.close();
    const copy = await openSqliteStore({ path: copyPath });
    expect(await copy.eventCount()).toBe(1);
    await copy.close();
  });
});
