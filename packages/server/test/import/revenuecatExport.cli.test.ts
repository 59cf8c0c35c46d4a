// `tenure import --format revenuecat-export` end to end: files on disk (plain and gzip), a real
// SQLite store, the summary and exit codes; bad files change nothing; re-imports and later webhooks.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { DEFAULT_CONFIG, parseWebhook, type Subscriber, type SubscriberStore } from '@tenure/core';
import { afterAll, describe, expect, it } from 'vitest';
import { runDataCommand } from '../../src/cli/dataCommands.js';
import { DAY, fixture, T0 } from '../helpers/fixtures.js';
import { subscribersAt, withStoreAt } from '../helpers/storeAt.js';
import { exportTime, toCsv, txRow } from './exportCsv.js';

const dir = mkdtempSync(join(tmpdir(), 'tenure-rcexport-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name = 'store') => join(dir, `${name}-${++n}.db`);

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), handleSignals: false, progressTty: false } };
}

/** The SQLite store at `path`, opened for `use` and closed after. */
const withStore = <T>(path: string, use: (store: SubscriberStore) => Promise<T>): Promise<T> => withStoreAt(`sqlite:${path}`, use);
const subscribers = (path: string): Promise<Subscriber[]> => subscribersAt(`sqlite:${path}`);

const AS_OF = T0 + 40 * DAY;

/** Three customers: one renewed (active), one opted out (pending_cancel), one lapsed trial (churned); and a sandbox row. */
const ROWS = [
  txRow({ rc_original_app_user_id: 'alice', rc_last_seen_app_user_id_alias: 'alice', store_transaction_id: 'al1', original_store_transaction_id: 'al1' }),
  txRow({
    rc_original_app_user_id: 'alice',
    rc_last_seen_app_user_id_alias: 'alice',
    store_transaction_id: 'al2',
    original_store_transaction_id: 'al1',
    start_time: exportTime(T0 + 30 * DAY),
    end_time: exportTime(T0 + 60 * DAY),
    renewal_number: '2',
    updated_at: exportTime(AS_OF),
  }),
  txRow({
    rc_original_app_user_id: 'bob',
    rc_last_seen_app_user_id_alias: 'bob',
    store_transaction_id: 'bo1',
    original_store_transaction_id: 'bo1',
    start_time: exportTime(T0 + 20 * DAY),
    end_time: exportTime(T0 + 50 * DAY),
    unsubscribe_detected_at: exportTime(T0 + 25 * DAY),
  }),
  txRow({
    rc_original_app_user_id: 'carol',
    rc_last_seen_app_user_id_alias: 'carol',
    store_transaction_id: 'ca1',
    original_store_transaction_id: 'ca1',
    is_trial_period: 'true',
    price_in_usd: '0',
    end_time: exportTime(T0 + 7 * DAY),
  }),
  txRow({ rc_original_app_user_id: 'sandy', rc_last_seen_app_user_id_alias: 'sandy', store_transaction_id: 'sa1', original_store_transaction_id: 'sa1', is_sandbox: 'true' }),
];

function writeExport(text: string, gzip = false): string {
  const file = join(dir, `transactions-${++n}.csv${gzip ? '.gz' : ''}`);
  writeFileSync(file, gzip ? gzipSync(text) : text);
  return file;
}

const importArgs = (file: string, db: string, ...more: string[]) => [file, '--format', 'revenuecat-export', '--store', `sqlite:${db}`, '--clock', new Date(AS_OF).toISOString(), ...more];

describe('tenure import --format revenuecat-export', () => {
  it.each([false, true])('derives every subscriber as of the export (gzip: %s) and prints a summary', async (gzip) => {
    const db = fresh();
    const c = capture();
    const { code } = await runDataCommand('import', importArgs(writeExport(toCsv(ROWS), gzip), db, '--json'), {}, c.io);
    expect(c.err.join('')).toMatch(/^import: 5 rows in .*: 3 customers, 3 subscriptions; events \d+ new, 0 duplicate, 0 ignored; 1 sandbox rows skipped, 0 rejected; as of /);
    expect(code).toBe(0);
    const report = JSON.parse(c.out.join(''));
    expect(report).toMatchObject({ rows: 5, customers: 3, subscriptions: 3, sandbox_skipped: 1, rejected: 0, as_of: AS_OF, complete: true });
    const byId = new Map((await subscribers(db)).map((s) => [s.customer_id, s]));
    expect([...byId.keys()]).toEqual(['alice', 'bob', 'carol']);
    expect(byId.get('alice')).toMatchObject({ state: 'active', renewals: 1, period_ends_at: T0 + 60 * DAY, product_id: 'rc_subscription_monthly' });
    expect(byId.get('bob')).toMatchObject({ state: 'pending_cancel', period_ends_at: T0 + 50 * DAY });
    expect(byId.get('carol')).toMatchObject({ state: 'churned', trial_started_at: T0, trial_ends_at: T0 + 7 * DAY });
  });

  it('imports sandbox rows with --include-sandbox into the sandbox namespace, never into production', async () => {
    const db = fresh();
    const c = capture();
    expect((await runDataCommand('import', importArgs(writeExport(toCsv(ROWS)), db, '--include-sandbox'), {}, c.io)).code).toBe(0);
    expect(c.err.join('')).toContain('1 sandbox rows into the sandbox store, 0 sandbox rows skipped');
    expect((await subscribers(db)).map((s) => s.customer_id)).toEqual(['alice', 'bob', 'carol']);
    expect((await subscribers(db.replace(/\.db$/, '.sandbox.db'))).map((s) => s.customer_id)).toEqual(['sandy']);
  });

  it('importing the same file again, or the next day\'s, double-counts nothing', async () => {
    const db = fresh();
    const file = writeExport(toCsv(ROWS));
    expect((await runDataCommand('import', importArgs(file, db), {}, capture().io)).code).toBe(0);
    const first = await subscribers(db);
    const again = capture();
    expect((await runDataCommand('import', importArgs(file, db, '--json'), {}, again.io)).code).toBe(0);
    expect(JSON.parse(again.out.join(''))).toMatchObject({ new: 0, rejected: 0 });
    expect(await subscribers(db)).toEqual(first);
    // The next day: alice's transactions again, one more renewal.
    const nextDay = [
      ...ROWS,
      txRow({
        rc_original_app_user_id: 'alice',
        rc_last_seen_app_user_id_alias: 'alice',
        store_transaction_id: 'al3',
        original_store_transaction_id: 'al1',
        start_time: exportTime(T0 + 60 * DAY),
        end_time: exportTime(T0 + 90 * DAY),
        renewal_number: '3',
        updated_at: exportTime(T0 + 61 * DAY),
      }),
    ];
    const later = capture();
    expect((await runDataCommand('import', [...importArgs(writeExport(toCsv(nextDay)), db, '--json')], {}, later.io)).code).toBe(0);
    const alice = (await subscribers(db)).find((s) => s.customer_id === 'alice');
    expect(alice).toMatchObject({ state: 'active', renewals: 2, period_ends_at: T0 + 90 * DAY });
  });

  it('refuses a file that is not a version 5 export before writing anything, naming the missing columns', async () => {
    const db = fresh();
    const noRenewal = toCsv(ROWS, Object.keys(ROWS[0] ?? {}).filter((c) => c !== 'renewal_number' && c !== 'is_sandbox'));
    const c = capture();
    expect((await runDataCommand('import', importArgs(writeExport(noRenewal), db), {}, c.io)).code).toBe(1);
    expect(c.err.join('')).toMatch(/missing columns is_sandbox, renewal_number\n$/);
    expect(existsSync(db)).toBe(false);

    const semicolons = toCsv(ROWS).replaceAll(',', ';');
    const d = capture();
    expect((await runDataCommand('import', importArgs(writeExport(semicolons, true), db), {}, d.io)).code).toBe(1);
    expect(d.err.join('')).toMatch(/missing columns rc_original_app_user_id, .*auto_resume_time \(the header looks ';'-delimited; a version 5 export is comma-delimited\)/);
    expect(existsSync(db)).toBe(false);

    const empty = capture();
    expect((await runDataCommand('import', importArgs(writeExport(''), db), {}, empty.io)).code).toBe(1);
    expect(empty.err.join('')).toContain('not a RevenueCat data export (version 5)');
    expect(existsSync(db)).toBe(false);
  });

  it('skips a bad row, reporting its line and column, and imports the others', async () => {
    const db = fresh();
    const rows = [...ROWS.slice(0, 2), { ...txRow({ rc_original_app_user_id: 'dave', store_transaction_id: 'dv1', original_store_transaction_id: 'dv1' }), start_time: 'yesterday' }, ...ROWS.slice(2)];
    const text = `${toCsv(rows)}short,row\n`;
    const c = capture();
    expect((await runDataCommand('import', importArgs(writeExport(text), db), {}, c.io)).code).toBe(1);
    const err = c.err.join('');
    expect(err).toContain('\n  line 4 (start_time): Expected a UTC time');
    expect(err).toContain('\n  line 8 (row): Expected 44 cells like the header, got 2');
    expect((await subscribers(db)).map((s) => s.customer_id)).toEqual(['alice', 'bob', 'carol']);
  });

  it('reads stdin (-), gzip, with quoted cells holding commas, quotes and newlines; lines are counted in the file', async () => {
    const db = fresh();
    const attributes = '{"$displayName": {"value": "Ann, \\"the\\" first\\nline two", "updated_at_ms": 1}}'.replace('\\n', '\n');
    const rows = [{ ...ROWS[0], custom_subscriber_attributes: attributes }, { ...ROWS[2], start_time: 'bad' }];
    const c = capture();
    const io = { ...c.io, stdinStream: Readable.from([gzipSync(toCsv(rows))]) };
    expect((await runDataCommand('import', ['-', '--format', 'revenuecat-export', '--store', `sqlite:${db}`], {}, io)).code).toBe(1);
    // The first row spans lines 2 and 3, so bob's row is line 4.
    expect(c.err.join('')).toContain('\n  line 4 (start_time): ');
    expect((await subscribers(db)).map((s) => s.customer_id)).toEqual(['alice']);
  });

  it('later webhooks fold on top of the imported state', async () => {
    const db = fresh();
    expect((await runDataCommand('import', importArgs(writeExport(toCsv(ROWS)), db), {}, capture().io)).code).toBe(0);
    const ctx = { now: T0 + 70 * DAY, config: DEFAULT_CONFIG };
    await withStore(db, async (store) => {
      const handled = (name: string, over: Record<string, unknown>) => {
        const parsed = parseWebhook(fixture(name, over));
        if (!parsed.ok || !parsed.value.handled) throw new Error(name);
        return parsed.value.event;
      };
      // bob's cancelled period ends: EXPIRATION; alice's next renewal arrives by webhook (each of the
      // imported subscription: the webhook's original_transaction_id is the export's original_store_transaction_id).
      await store.applyEvent(handled('expiration', { id: 'rc-1', app_user_id: 'bob', original_transaction_id: 'bo1', event_timestamp_ms: T0 + 50 * DAY, expiration_at_ms: T0 + 50 * DAY }), ctx);
      await store.applyEvent(handled('renewal', { id: 'rc-2', app_user_id: 'alice', original_transaction_id: 'al1', event_timestamp_ms: T0 + 60 * DAY, purchased_at_ms: T0 + 60 * DAY, expiration_at_ms: T0 + 90 * DAY }), ctx);
      expect(await store.get('bob')).toMatchObject({ state: 'churned' });
      expect(await store.get('alice')).toMatchObject({ state: 'active', renewals: 2, period_ends_at: T0 + 90 * DAY });
    });
  });

  // Known gap (docs/import.md, "Where the two can disagree"): the webhook of a period that was
  // also imported has RevenueCat's own event id, so the store counts its renewal twice. The rule
  // change that fixes it (count per transaction) belongs to the core; this test turns red once it
  // lands, so the marker is removed then.
  it('a RENEWAL webhook for a period already imported does not count a second renewal', async () => {
    const db = fresh();
    expect((await runDataCommand('import', importArgs(writeExport(toCsv(ROWS)), db), {}, capture().io)).code).toBe(0);
    await withStore(db, async (store) => {
      const parsed = parseWebhook(
        fixture('renewal', { id: 'rc-al2', app_user_id: 'alice', transaction_id: 'al2', original_transaction_id: 'al1', event_timestamp_ms: T0 + 30 * DAY, purchased_at_ms: T0 + 30 * DAY, expiration_at_ms: T0 + 60 * DAY }),
      );
      if (!parsed.ok || !parsed.value.handled) throw new Error('renewal');
      await store.applyEvent(parsed.value.event, { now: AS_OF, config: DEFAULT_CONFIG });
      expect(await store.get('alice')).toMatchObject({ renewals: 1 });
    });
  });
});
