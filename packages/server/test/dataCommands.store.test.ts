// `tenure export`, `tenure import` and `tenure replay` against real stores: a SQLite file always,
// PostgreSQL when TEST_DATABASE_URL is set (one schema per test, dropped after).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  DEFAULT_CONFIG,
  configFingerprint,
  foldEvents,
  foldEventsByCustomer,
  materializeAtRisk,
  recordActivity,
  resolveConfig,
  selectAtRisk,
  type HandledEvent,
  type Subscriber,
  type SubscriberStore,
} from '@tenure/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock/clock.js';
import { ImportInterrupted, importRecords } from '../src/cli/storeData/importRecords.js';
import { runDataCommand } from '../src/cli/dataCommands.js';
import { transferEvent } from '@tenure/store-contract';
import { DAY, fixture, handledEvent as fixtureEvent, T0 } from './helpers/fixtures.js';
import { generateStories, handledEvent } from './durability/webhookStream.js';
import { TEST_DATABASE_URL, testSchema, warnIfNoPostgres } from './durability/postgresSchema.js';
import { withStoreAt } from './helpers/storeAt.js';

const NOW = T0 + 400 * DAY; // after every generated event
const CLOCK = new Date(NOW).toISOString();
const ctx = { now: NOW, config: DEFAULT_CONFIG };

const dir = mkdtempSync(join(tmpdir(), 'tenure-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store location the CLI can be pointed at, and a side door to its tables (to stale a projection). */
interface Target {
  spec: string;
  sql(text: string, params?: unknown[]): Promise<void>;
  cleanup(): Promise<void>;
}

let n = 0;
const BACKENDS: { name: string; skip: boolean; fresh(): Target }[] = [
  {
    name: 'sqlite',
    skip: false,
    fresh() {
      const path = join(dir, `store-${++n}.db`);
      return {
        spec: `sqlite:${path}`,
        async sql(text, params = []) {
          const db = new Database(path);
          try {
            db.prepare(text).run(...params);
          } finally {
            db.close();
          }
        },
        cleanup: async () => {},
      };
    },
  },
  {
    name: 'postgres',
    skip: TEST_DATABASE_URL === undefined,
    fresh() {
      const schema = testSchema('data');
      return {
        spec: schema.spec,
        async sql(text, params = []) {
          const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
          await client.connect();
          try {
            await client.query(`SET search_path TO "${schema.name}"`);
            await client.query(text.replace(/\?/g, (() => { let i = 0; return () => `$${++i}`; })()), params);
          } finally {
            await client.end();
          }
        },
        cleanup: () => schema.drop(),
      };
    },
  },
];
warnIfNoPostgres('the PostgreSQL runs of tenure export/import/replay');

function capture(extra: { stdinStream?: Readable; progressTty?: boolean } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let streamed = '';
  const stdoutStream = new Writable({ write: (chunk: Buffer, _e, done) => ((streamed += chunk.toString('utf8')), done()) });
  return {
    out,
    err,
    streamed: () => streamed,
    io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), handleSignals: false, progressTty: false, stdoutStream, ...extra },
  };
}


async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Everything observable of a store, to compare two stores or one store before and after. */
async function snapshot(store: SubscriberStore) {
  return {
    subscribers: await collect(store.list()),
    events: await store.eventCount(),
    count: await store.count(),
    records: await collect(store.records()),
    routes: await collect(store.movedSubscriptions()),
    atRisk: await store.atRisk({ limit: 10_000, min_score: 0 }, ctx),
  };
}

/** Seeds a store with generated customer stories and activity for every third customer. */
async function seed(store: SubscriberStore, customers: number, config = DEFAULT_CONFIG) {
  const stories = generateStories({ customers, seed: 11 });
  const events = stories.flatMap((s) => s.bodies.map(handledEvent)).filter((e): e is HandledEvent => e !== undefined);
  for (let i = 0; i < events.length; i += 300) await store.applyEvents(events.slice(i, i + 300), { now: NOW, config });
  const activity = stories.filter((_, i) => i % 3 === 0).map((s, i) => ({ customer_id: s.customer_id, at: T0 + 300 * DAY + i }));
  for (const a of activity) await store.recordActivity(a.customer_id, a.at, { now: NOW, config });
  return { events, activity };
}

/** The subscribers a set of events and activity reports must fold to. */
function expected(events: readonly HandledEvent[], activity: readonly { customer_id: string; at: number }[]): Subscriber[] {
  const byCustomer = foldEventsByCustomer(events);
  for (const a of activity) byCustomer.set(a.customer_id, recordActivity(byCustomer.get(a.customer_id)!, a.at));
  return [...byCustomer.values()];
}

const targets: Target[] = [];
afterEach(async () => {
  for (const t of targets.splice(0)) await t.cleanup();
});
const fresh = (backend: (typeof BACKENDS)[number]) => {
  const t = backend.fresh();
  targets.push(t);
  return t;
};

describe.each(BACKENDS)('tenure export / import / replay on $name', (backend) => {
  describe.skipIf(backend.skip)('', () => {
    it('export then import into a fresh store gives equal subscribers, events, activity and at-risk; exporting again gives the same bytes', async () => {
      const a = fresh(backend);
      const b = fresh(backend);
      const { events, activity } = await withStoreAt(a.spec, (s) => seed(s, 150));
      const file = join(dir, `export-${++n}.ndjson`);

      const exp = capture();
      expect((await runDataCommand('export', ['--store', a.spec, '--out', file], {}, exp.io)).code).toBe(0);
      expect(exp.err.join('')).toMatch(new RegExp(`^export: ${events.length.toLocaleString('en-US')} events and ${activity.length} activity lines written to .*\\n$`));
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      expect(lines).toHaveLength(events.length + activity.length);
      expect(JSON.parse(lines[0]!)).toEqual({ api_version: '1.0', event: events[0] });
      expect(JSON.parse(lines.at(-1)!)).toHaveProperty('activity.customer_id');

      const imp = capture();
      expect((await runDataCommand('import', [file, '--store', b.spec, '--clock', CLOCK, '--json'], {}, imp.io)).code).toBe(0);
      expect(JSON.parse(imp.out.join(''))).toEqual({
        lines: events.length + activity.length,
        new: events.length,
        duplicate: 0,
        ignored: 0,
        activity: activity.length,
        routes: 0,
        rejected: 0,
        rejections: [],
        rejections_omitted: 0,
        held_elsewhere: 0,
        held_elsewhere_examples: [],
        complete: true,
      });

      const before = await withStoreAt(a.spec, snapshot);
      const after = await withStoreAt(b.spec, snapshot);
      expect(after).toEqual(before);
      expect(after.subscribers).toEqual(expect.arrayContaining(expected(events, activity)));
      expect(after.count).toBe(150);
      expect(after.atRisk).toMatchObject({ next: null });
      expect(after.atRisk.items.map(({ subscriber: _s, ...row }) => row)).toEqual(
        selectAtRisk(after.subscribers, NOW, DEFAULT_CONFIG, { limit: 10_000, min_score: 0 }).items.map((i) => materializeAtRisk(i.subscriber, NOW, DEFAULT_CONFIG).row),
      );

      const again = capture();
      expect((await runDataCommand('export', ['--store', b.spec], {}, again.io)).code).toBe(0);
      expect(again.streamed()).toBe(readFileSync(file, 'utf8'));
    }, 60_000);

    it('importing the same file twice: the second run reports 0 new and every event duplicate, and changes nothing', async () => {
      const a = fresh(backend);
      const b = fresh(backend);
      const { events, activity } = await withStoreAt(a.spec, (s) => seed(s, 60));
      const file = join(dir, `export-${++n}.ndjson`);
      expect((await runDataCommand('export', ['--store', a.spec, '--out', file], {}, capture().io)).code).toBe(0);
      expect((await runDataCommand('import', [file, '--store', b.spec, '--clock', CLOCK], {}, capture().io)).code).toBe(0);
      const first = await withStoreAt(b.spec, snapshot);

      const second = capture();
      expect((await runDataCommand('import', [file, '--store', b.spec, '--clock', CLOCK, '--json'], {}, second.io)).code).toBe(0);
      expect(JSON.parse(second.out.join(''))).toMatchObject({ new: 0, duplicate: events.length, activity: activity.length, rejected: 0 });
      expect(second.err.join('')).toMatch(new RegExp(`: 0 new, ${events.length} duplicate, 0 ignored, ${activity.length} activity, 0 rejected\\n$`));
      expect(await withStoreAt(b.spec, snapshot)).toEqual(first);
    }, 60_000);

    it('carries the routes of moved subscriptions: a store imported from an export sends a late event of one to its receiver, as the original does', async () => {
      const a = fresh(backend);
      const b = fresh(backend);
      // The sender's subscription otx_s (bought, renewed) moves to user_r by a TRANSFER.
      const sender = { app_user_id: 'user_s', original_app_user_id: 'user_s', aliases: ['user_s'], original_transaction_id: 'otx_s' };
      const bought = fixtureEvent('initial_purchase', { ...sender, id: 'rt_1', event_timestamp_ms: T0, purchased_at_ms: T0, expiration_at_ms: T0 + 30 * DAY });
      const renewed = fixtureEvent('renewal', { ...sender, id: 'rt_2', event_timestamp_ms: T0 + 30 * DAY, purchased_at_ms: T0 + 30 * DAY, expiration_at_ms: T0 + 60 * DAY });
      const own = fixtureEvent('initial_purchase', { app_user_id: 'user_r', original_app_user_id: 'user_r', aliases: ['user_r'], original_transaction_id: 'otx_r', id: 'rt_3', event_timestamp_ms: T0 + DAY, purchased_at_ms: T0 + DAY, expiration_at_ms: T0 + 31 * DAY });
      const late = fixtureEvent('renewal', { ...sender, id: 'rt_4', event_timestamp_ms: T0 + 60 * DAY, purchased_at_ms: T0 + 60 * DAY, expiration_at_ms: T0 + 90 * DAY });
      const { events } = await withStoreAt(a.spec, async (s) => {
        const seeded = await seed(s, 20);
        await s.applyEvents([bought, renewed, own], ctx);
        await s.applyTransfer(transferEvent('rt_tr', ['user_s'], ['user_r']), ctx);
        return seeded;
      });
      const file = join(dir, `export-${++n}.ndjson`);
      const exp = capture();
      expect((await runDataCommand('export', ['--store', a.spec, '--out', file], {}, exp.io)).code).toBe(0);
      expect(exp.err.join('')).toMatch(/^export: [\d,]+ events, \d+ activity and 1 route lines written to /);
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      // The route comes last: the moved subscription to the receiving id (the receiver's own otx_r did not move).
      expect(lines).toHaveLength((await withStoreAt(a.spec, (s) => collect(s.records()))).length + 1);
      expect(JSON.parse(lines.at(-1)!)).toEqual({ moved_subscription: { original_transaction_id: 'otx_s', receiver: 'user_r' } });
      expect(JSON.parse(lines.at(-2)!)).not.toHaveProperty('moved_subscription');

      for (let run = 1; run <= 2; run++) {
        const imp = capture();
        expect((await runDataCommand('import', [file, '--store', b.spec, '--clock', CLOCK, '--json'], {}, imp.io)).code).toBe(0);
        expect(JSON.parse(imp.out.join(''))).toMatchObject({ new: run === 1 ? events.length + 3 : 0, routes: 1, rejected: 0 });
        expect(imp.err.join('')).toMatch(/ activity, 1 routes, 0 rejected\n$/);
        // The second import of the same file changes nothing.
        expect(await withStoreAt(b.spec, snapshot)).toEqual(await withStoreAt(a.spec, snapshot));
      }

      // A renewal of the moved subscription, delivered late under the sender's ids, reaches user_r in both.
      for (const spec of [a.spec, b.spec]) {
        await withStoreAt(spec, async (s) => {
          expect(await s.applyEvent(late, ctx)).toMatchObject({ status: 'applied', subscriber: { customer_id: 'user_r', renewals: 2 } });
          expect(await s.get('user_s')).toBeUndefined();
        });
      }
      expect(await withStoreAt(b.spec, snapshot)).toEqual(await withStoreAt(a.spec, snapshot));
    }, 60_000);

    it('reports each rejected line with its number and reason, counts ignored types, and imports the rest (exit 1)', async () => {
      const t = fresh(backend);
      const purchase = (id: string, customer: string, at: number) => fixture('initial_purchase', { id, app_user_id: customer, event_timestamp_ms: at, purchased_at_ms: at });
      const { app_user_id: _dropped, ...noCustomer } = purchase('evt_3', 'x', T0).event;
      const lines = [
        JSON.stringify(purchase('evt_1', 'alice', T0)),
        '{"api_version":"1.0","event":{"type":"RENEWAL",',
        JSON.stringify({ api_version: '1.0', event: noCustomer }),
        JSON.stringify(fixture('transfer', { id: 'evt_4' })),
        '',
        JSON.stringify({ activity: { customer_id: 'nobody', at: T0 } }),
        JSON.stringify({ activity: { customer_id: 'alice', at: T0 + 5 * DAY } }),
        JSON.stringify(fixture('renewal', { id: 'evt_8', app_user_id: 'alice', event_timestamp_ms: String(T0 + DAY) })),
        JSON.stringify(purchase('evt_9', 'bob', T0 + DAY)),
        // Activity before its customer's first event: applied once the event is in.
        JSON.stringify({ activity: { customer_id: 'carol', at: T0 + 9 * DAY } }),
        JSON.stringify(purchase('evt_11', 'carol', T0 + 2 * DAY)),
        JSON.stringify(purchase('evt_1', 'alice', T0)),
      ];
      const file = join(dir, `mixed-${++n}.ndjson`);
      writeFileSync(file, `${lines.join('\n')}\n`);

      const c = capture();
      expect((await runDataCommand('import', [file, '--store', t.spec, '--clock', CLOCK, '--json'], {}, c.io)).code).toBe(1);
      const report = JSON.parse(c.out.join(''));
      expect(report).toMatchObject({ lines: 11, new: 3, duplicate: 1, ignored: 1, activity: 2, rejected: 4, complete: true });
      expect(report.rejections).toEqual([
        { line: 2, field: 'line', message: expect.stringMatching(/^Invalid JSON: /) },
        { line: 3, field: 'event.app_user_id', message: expect.any(String) },
        { line: 6, field: 'activity.customer_id', message: 'No events of customer "nobody" in the store or the file: activity is kept only for known customers' },
        { line: 8, field: 'event.event_timestamp_ms', message: expect.any(String) },
      ]);
      const stderr = c.err.join('');
      expect(stderr).toMatch(/^import: 11 lines in .*: 3 new, 1 duplicate, 1 ignored, 2 activity, 4 rejected\n/);
      expect(stderr).toContain('\n  line 2 (line): Invalid JSON: ');
      expect(stderr).toContain('\n  line 3 (event.app_user_id): ');

      await withStoreAt(t.spec, async (store) => {
        expect(await store.eventCount()).toBe(3);
        expect((await store.get('alice'))?.last_activity_at).toBe(T0 + 5 * DAY);
        expect((await store.get('carol'))?.last_activity_at).toBe(T0 + 9 * DAY);
        expect(await store.get('nobody')).toBeUndefined();
        const activity = (await collect(store.records())).filter((r) => r.kind === 'activity');
        expect(activity).toEqual(expect.arrayContaining([{ kind: 'activity', customer_id: 'alice', at: T0 + 5 * DAY }, { kind: 'activity', customer_id: 'carol', at: T0 + 9 * DAY }]));
      });
    }, 60_000);

    it('counts and names the events dropped because another customer holds their transaction, in the summary, the warning and --json', async () => {
      const t = fresh(backend);
      const purchase = (id: string, customer: string, txn: string) =>
        JSON.stringify(fixture('initial_purchase', { id, app_user_id: customer, original_app_user_id: customer, aliases: [customer], event_timestamp_ms: T0, purchased_at_ms: T0, transaction_id: txn }));
      const lines = [
        purchase('evt_a', 'ann', 't1'),
        purchase('evt_b', 'ben', 't2'),
        purchase('evt_c', 'cid', 't1'), // ann's transaction under another customer
        purchase('evt_a2', 'ann', 't1'), // ann's own transaction under a second id: a quiet duplicate
        purchase('evt_d', 'dee', 't2'), // ben's
      ];
      const file = join(dir, `held-${++n}.ndjson`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const c = capture();
      expect((await runDataCommand('import', [file, '--store', t.spec, '--clock', CLOCK, '--batch-size', '2', '--json'], {}, c.io)).code).toBe(0);
      expect(JSON.parse(c.out.join(''))).toMatchObject({
        new: 2,
        duplicate: 3,
        held_elsewhere: 2,
        held_elsewhere_examples: [
          { event_id: 'evt_c', customer_id: 'cid', occurrence: 'INITIAL_PURCHASE:APP_STORE:t1', held_by: 'ann' },
          { event_id: 'evt_d', customer_id: 'dee', occurrence: 'INITIAL_PURCHASE:APP_STORE:t2', held_by: 'ben' },
        ],
      });
      const stderr = c.err.join('');
      expect(stderr).toMatch(/: 2 new, 3 duplicate \(2 held by another customer\), 0 ignored/);
      expect(stderr).toContain('\nwarning: 2 events dropped as duplicates: another customer holds their transaction (type:store:transaction_id)\n');
      expect(stderr).toContain('\n  evt_c (customer cid): INITIAL_PURCHASE:APP_STORE:t1 held by ann\n');
      expect(stderr).toContain('\n  evt_d (customer dee): INITIAL_PURCHASE:APP_STORE:t2 held by ben');
      await withStoreAt(t.spec, async (store) => {
        expect(await store.eventCount()).toBe(2);
        expect(await store.get('cid')).toBeUndefined();
      });
    }, 60_000);

    it('imports from stdin with -, and exports to stdout', async () => {
      const a = fresh(backend);
      const b = fresh(backend);
      const { events } = await withStoreAt(a.spec, (s) => seed(s, 20));
      const exp = capture();
      expect((await runDataCommand('export', [], { DATABASE_URL: a.spec }, exp.io)).code).toBe(0);
      const imp = capture({ stdinStream: Readable.from([exp.streamed()]) });
      expect((await runDataCommand('import', ['-', '--batch-size', '7'], { DATABASE_URL: b.spec, TENURE_CLOCK: CLOCK }, imp.io)).code).toBe(0);
      expect(imp.err.join('')).toContain(`: ${events.length} new, 0 duplicate`);
      expect(await withStoreAt(b.spec, snapshot)).toEqual(await withStoreAt(a.spec, snapshot));
    }, 60_000);

    it('replay after a rules or configuration change rebuilds every subscriber from its events and the rows the new config says', async () => {
      const t = fresh(backend);
      // The rows were built under another configuration, and some records by other (older) rules.
      const old = resolveConfig({ bands: { critical: 95, high: 30, medium: 10 }, risk: { state_base: { active: 50 } } });
      const { events, activity } = await withStoreAt(t.spec, (s) => seed(s, 120, old));
      const want = expected(events, activity);
      const stale = want.filter((_, i) => i % 4 === 0);
      for (const s of stale) {
        const first = foldEvents(events.filter((e) => e.app_user_id === s.customer_id).slice(0, 1))!;
        await t.sql('UPDATE subscribers SET record = ?, state = ?, score = ? WHERE customer_id = ?', [JSON.stringify(first), first.state, 0, s.customer_id]);
      }

      const c = capture({ progressTty: true });
      expect((await runDataCommand('replay', ['--store', t.spec, '--clock', CLOCK], {}, c.io)).code).toBe(0);

      // The rows as replay left them, read before any store call could re-materialize them.
      const rows = new Map<string, { state: string; score: number; band: string }>();
      if (backend.name === 'sqlite') {
        const db = new Database(t.spec.slice('sqlite:'.length), { readonly: true });
        for (const r of db.prepare('SELECT customer_id, state, score, band FROM subscribers').all() as { customer_id: string; state: string; score: number; band: string }[]) rows.set(r.customer_id, r);
        expect((db.prepare("SELECT value FROM meta WHERE key = 'config_fingerprint'").get() as { value: string }).value).toBe(configFingerprint(DEFAULT_CONFIG));
        db.close();
        for (const s of want) expect(rows.get(s.customer_id)).toEqual({ customer_id: s.customer_id, ...pick(materializeAtRisk(s, NOW, DEFAULT_CONFIG).row) });
      }

      await withStoreAt(t.spec, async (store) => {
        for (const s of want) expect(await store.get(s.customer_id)).toEqual(s);
        const page = await store.atRisk({ limit: 10_000 }, ctx);
        expect(page.items.map((i) => i.subscriber)).toEqual(selectAtRisk(want, NOW, DEFAULT_CONFIG, { limit: 10_000 }).items.map((i) => i.subscriber));
      });

      const stderr = c.err.join('');
      expect(stderr).toContain('\rreplay ['); // the bar, on a terminal
      expect(stderr).toMatch(new RegExp(`\\r\\x1b\\[Kreplay: 120 subscribers rebuilt from ${events.length.toLocaleString('en-US')} events in .*\\n$`));
    }, 60_000);
  });
});

const pick = (row: { state: string; score: number; band: string }) => ({ state: row.state, score: row.score, band: row.band });

describe.skipIf(TEST_DATABASE_URL === undefined)('moving a store from SQLite to PostgreSQL', () => {
  it('export from a SQLite file, import into PostgreSQL: the same subscribers, events, activity and at-risk order', async () => {
    const from = fresh(BACKENDS[0]!);
    const to = fresh(BACKENDS[1]!);
    const { events } = await withStoreAt(from.spec, (s) => seed(s, 80));
    const file = join(dir, `move-${++n}.ndjson`);
    expect((await runDataCommand('export', ['--out', file], { DATABASE_URL: from.spec }, capture().io)).code).toBe(0);
    const imp = capture();
    expect((await runDataCommand('import', [file], { DATABASE_URL: to.spec, TENURE_CLOCK: CLOCK }, imp.io)).code).toBe(0);
    expect(imp.err.join('')).toContain(`: ${events.length} new, 0 duplicate`);
    expect(await withStoreAt(to.spec, snapshot)).toEqual(await withStoreAt(from.spec, snapshot));
  }, 60_000);
});

describe('importRecords on SQLite', () => {
  const lines = (count: number, customer = (i: number) => `user_${i % 7}`) =>
    Array.from({ length: count }, (_, i) => JSON.stringify(fixture('renewal', { id: `evt_${i}`, app_user_id: customer(i), event_timestamp_ms: T0 + i })));

  it('stops between batches when aborted: what it reports is exactly what is committed', async () => {
    const t = fresh(BACKENDS[0]!);
    const controller = new AbortController();
    const error = await withStoreAt(t.spec, (store) =>
      importRecords(store, Readable.from(lines(250)), {
        clock: fixedClock(NOW),
        config: DEFAULT_CONFIG,
        batchSize: 100,
        signal: controller.signal,
        onBatch: () => controller.abort(new Error('interrupted')),
      }).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(ImportInterrupted);
    expect((error as ImportInterrupted).report).toMatchObject({ new: 100, duplicate: 0 });
    expect((error as ImportInterrupted).line).toBe(200);
    expect(await withStoreAt(t.spec, (s) => s.eventCount())).toBe(100);
  });

  it('restores a route in file order: the events before its line stay where delivered, those after it are routed; a bad route line is rejected with its number', async () => {
    const t = fresh(BACKENDS[0]!);
    const renewal = (id: string, day: number) => JSON.stringify(fixture('renewal', { id, app_user_id: 'user_s', original_app_user_id: 'user_s', aliases: ['user_s'], original_transaction_id: 'otx_s', event_timestamp_ms: T0 + day * DAY }));
    const route = (receiver: string) => JSON.stringify({ moved_subscription: { original_transaction_id: 'otx_s', receiver } });
    const file = [renewal('ro_1', 1), route('user_x'), JSON.stringify({ moved_subscription: { original_transaction_id: 'otx_s', receiver: '' } }), route('user_r'), renewal('ro_2', 2), route('user_z'), route('user_r')];
    const report = await withStoreAt(t.spec, (store) => importRecords(store, Readable.from(file), { clock: fixedClock(NOW), config: DEFAULT_CONFIG }));
    expect(report).toMatchObject({ lines: 7, new: 2, routes: 4, rejected: 1, rejections: [{ line: 3, field: 'moved_subscription.receiver', message: 'Must not be empty' }] });
    await withStoreAt(t.spec, async (store) => {
      expect((await store.get('user_s'))?.renewals).toBe(1); // ro_1, stored before any route
      expect((await store.get('user_r'))?.renewals).toBe(1); // ro_2, after the route to user_r
      expect(await store.get('user_x')).toBeUndefined();
      // The latest route of the subscription wins.
      expect(await collect(store.movedSubscriptions())).toEqual([{ original_transaction_id: 'otx_s', receiver: 'user_r' }]);
    });
  });

  it('with --clock event, assesses each batch at the latest event time read', async () => {
    const t = fresh(BACKENDS[0]!);
    const file = join(dir, `clock-${++n}.ndjson`);
    // One customer per batch of 10, so each row keeps the instant of its own batch.
    writeFileSync(file, `${lines(30, (i) => `user_${Math.floor(i / 10)}`).join('\n')}\n`);
    expect((await runDataCommand('import', [file, '--store', t.spec, '--batch-size', '10'], { TENURE_CLOCK: 'event' }, capture().io)).code).toBe(0);
    const db = new Database(t.spec.slice('sqlite:'.length), { readonly: true });
    try {
      expect(db.prepare('SELECT DISTINCT assessed_at AS at FROM subscribers ORDER BY at').all()).toEqual([{ at: T0 + 9 }, { at: T0 + 19 }, { at: T0 + 29 }]);
    } finally {
      db.close();
    }
  });
});
