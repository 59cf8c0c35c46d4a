// `tenure import --format revenuecat-export` killed (SIGKILL) while it stores the file, as a real
// process on a SQLite file: the batches it committed are stored, their customers still marked to
// fold (`import_pending`); importing the file again stores nothing twice, folds every customer,
// and leaves exactly the subscribers of an import that never stopped.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { Subscriber } from '@tenure/core';
import { afterAll, describe, expect, it } from 'vitest';
import { runDataCommand } from '../../src/cli/dataCommands.js';
import { DAY, T0 } from '../helpers/fixtures.js';
import { subscribersAt } from '../helpers/storeAt.js';
import { exportTime, toCsv, txRow } from './exportCsv.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tenure-import-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CUSTOMERS = 2_000;
const AS_OF = T0 + 100 * DAY;
/** Three monthly periods per customer, in time order (every customer's first period, then every second...): each customer spans the file. */
const rows = [0, 1, 2].flatMap((p) =>
  Array.from({ length: CUSTOMERS }, (_, c) =>
    txRow({
      rc_original_app_user_id: `$RCAnonymousID:${c}`,
      rc_last_seen_app_user_id_alias: `user_${c}`,
      store_transaction_id: `c${c}p${p}`,
      original_store_transaction_id: `c${c}p0`,
      start_time: exportTime(T0 + p * 30 * DAY + c * 1000),
      end_time: exportTime(T0 + (p + 1) * 30 * DAY + c * 1000),
      renewal_number: String(p + 1),
      unsubscribe_detected_at: p === 2 && c % 3 === 0 ? exportTime(T0 + 61 * DAY) : '',
    }),
  ),
);
const file = join(dir, 'transactions.csv');
writeFileSync(file, toCsv(rows));
const args = (path: string) => ['--format', 'revenuecat-export', file, '--store', `sqlite:${path}`, '--batch-size', '500', '--as-of', new Date(AS_OF).toISOString(), '--clock', new Date(AS_OF).toISOString()];

const quiet = { stdout: () => undefined, stderr: () => undefined, handleSignals: false, progressTty: false };

const subscribersOf = (path: string): Promise<Subscriber[]> => subscribersAt(`sqlite:${path}`);

/** What the file holds as the import left it: stored events, and customers still to fold (undefined before the store exists). */
function progressOf(path: string): { events: number; pending: number } | undefined {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      return { events: count('SELECT count(*) AS n FROM events'), pending: count('SELECT count(*) AS n FROM import_pending') };
    } finally {
      db.close();
    }
  } catch {
    return undefined; // not created or not migrated yet
  }
}

describe('tenure import --format revenuecat-export (process killed)', () => {
  it('a run killed while storing leaves its customers marked; the next run of the file completes it exactly', async () => {
    const reference = join(dir, 'reference.db');
    expect((await runDataCommand('import', args(reference), {}, quiet)).code).toBe(0);
    const expected = await subscribersOf(reference);
    expect(expected).toHaveLength(CUSTOMERS);

    const path = join(dir, 'killed.db');
    const env: Record<string, string> = {};
    for (const key of ['PATH', 'HOME', 'TMPDIR']) if (process.env[key] !== undefined) env[key] = process.env[key];
    const child = spawn(process.execPath, ['--conditions=@tenure/source', '--import', 'tsx', cli, 'import', ...args(path)], { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    // Once a batch is committed, kill it without warning: it is storing the next ones.
    const deadline = performance.now() + 60_000;
    while ((progressOf(path)?.events ?? 0) === 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const left = progressOf(path)!;
    expect(left.events).toBeGreaterThan(0);
    expect(left.pending).toBeGreaterThan(0);

    expect((await runDataCommand('import', args(path), {}, quiet)).code).toBe(0);
    expect(progressOf(path)).toEqual({ events: progressOf(reference)!.events, pending: 0 });
    expect(await subscribersOf(path)).toEqual(expected);
  }, 120_000);
});
