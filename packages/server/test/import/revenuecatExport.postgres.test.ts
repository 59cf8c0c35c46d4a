// `tenure import --format revenuecat-export` into PostgreSQL (TEST_DATABASE_URL; skipped with a
// notice otherwise): the same subscribers as SQLite, sandbox rows in the sandbox schema, and a
// second import that stores nothing new.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDataCommand } from '../../src/cli/dataCommands.js';
import { TEST_DATABASE_URL, testSchema, warnIfNoPostgres } from '../durability/postgresSchema.js';
import { DAY, T0 } from '../helpers/fixtures.js';
import { subscribersAt } from '../helpers/storeAt.js';
import { exportTime, toCsv, txRow } from './exportCsv.js';

warnIfNoPostgres('the PostgreSQL run of tenure import --format revenuecat-export');

const capture = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), handleSignals: false, progressTty: false } };
};

describe.skipIf(TEST_DATABASE_URL === undefined)('tenure import --format revenuecat-export on PostgreSQL', () => {
  it('derives the subscribers, keeps sandbox rows in the sandbox schema, and re-imports nothing', async () => {
    const schema = testSchema('rcexport');
    // Made here, not at load: a skipped file runs no hooks, so a directory made at load would stay.
    const dir = mkdtempSync(join(tmpdir(), 'tenure-rcexport-pg-'));
    try {
      const file = join(dir, 'transactions.csv');
      writeFileSync(
        file,
        toCsv([
          txRow({ rc_original_app_user_id: 'p1', rc_last_seen_app_user_id_alias: 'p1', store_transaction_id: 'p1a', original_store_transaction_id: 'p1a', unsubscribe_detected_at: exportTime(T0 + DAY) }),
          txRow({ rc_original_app_user_id: 's1', rc_last_seen_app_user_id_alias: 's1', store_transaction_id: 's1a', original_store_transaction_id: 's1a', is_sandbox: 'true' }),
        ]),
      );
      const args = [file, '--format', 'revenuecat-export', '--store', schema.spec, '--include-sandbox', '--as-of', new Date(T0 + 2 * DAY).toISOString(), '--json'];
      const first = capture();
      expect((await runDataCommand('import', args, {}, first.io)).code).toBe(0);
      expect(JSON.parse(first.out.join(''))).toMatchObject({ rows: 2, sandbox_rows: 1, rejected: 0 });
      expect(await subscribersAt(schema.spec)).toMatchObject([{ customer_id: 'p1', state: 'pending_cancel' }]);
      const sandboxSpec = new URL(schema.spec);
      sandboxSpec.searchParams.set('schema', `${schema.name}_sandbox`);
      expect((await subscribersAt(sandboxSpec.toString())).map((s) => s.customer_id)).toEqual(['s1']);
      const again = capture();
      expect((await runDataCommand('import', args, {}, again.io)).code).toBe(0);
      expect(JSON.parse(again.out.join(''))).toMatchObject({ new: 0, rejected: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await schema.drop();
    }
  });
});
