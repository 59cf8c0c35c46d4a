// A change of rules rescores every stored subscriber once, at start, before the service accepts a
// request; a start with the same rules (even another calibration) rescores nothing. On a real
// SQLite file and a real PostgreSQL schema, through `tenure serve --config`, the rows read straight
// from the database.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DAY_MS } from '@tenure/core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/runCli.js';
import { captureCli } from './helpers/cliCapture.js';
import { fixture, T0 } from './helpers/fixtures.js';

const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] || undefined;
if (TEST_DATABASE_URL === undefined) console.warn('[config.rescore.stores] TEST_DATABASE_URL is not set: SKIPPING PostgreSQL (CI sets it)');

const dir = mkdtempSync(join(tmpdir(), 'tenure-config-rescore-'));
const schema = `tenure_rescore_${randomBytes(5).toString('hex')}`;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (TEST_DATABASE_URL === undefined) return;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  for (const s of [schema, `${schema}_sandbox`]) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await client.end();
});

const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};
const configA = file('a.json', {});
/** Other rules: an active subscriber scores 35 (high), a billing issue 95 + 10 (critical from 90). */
const rulesB = { risk: { state_base: { active: 35, billing_issue: 95 } }, bands: { critical: 90, high: 30, medium: 20 } };
const configB = file('b.json', rulesB);
const calibration = { horizon_ms: 30 * DAY_MS, samples: 10, positives: 2, probabilities: Array.from({ length: 101 }, (_, s) => s / 100), window: { from: T0 - 90 * DAY_MS, to: T0 - 30 * DAY_MS } };
const configBCalibrated = file('b-calibrated.json', { ...rulesB, calibration });

type Row = { customer_id: string; score: number; band: string };
const stores: [string, () => string, () => Promise<Row[]>, boolean][] = [
  [
    'SQLite',
    () => `sqlite:${join(dir, 'tenure.db')}`,
    async () => {
      const db = new Database(join(dir, 'tenure.db'), { readonly: true });
      try {
        return db.prepare('SELECT customer_id, score, band FROM subscribers ORDER BY customer_id').all() as Row[];
      } finally {
        db.close();
      }
    },
    true,
  ],
  [
    'PostgreSQL',
    () => `${TEST_DATABASE_URL}?schema=${schema}`,
    async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        return (await client.query<Row>(`SELECT customer_id, score, band FROM "${schema}".subscribers ORDER BY customer_id`)).rows;
      } finally {
        await client.end();
      }
    },
    TEST_DATABASE_URL !== undefined,
  ],
];

describe.each(stores)('a configuration change on %s', (_name, store, rows, enabled) => {
  /** Starts `tenure serve` with the file; resolves with the running service and its log lines. */
  const serve = async (config: string) => {
    const c = captureCli();
    const { code, running } = await runCli(['serve', '--port', '0', '--store', store(), '--clock', new Date(T0 + DAY_MS).toISOString(), '--config', config], {}, c.io);
    expect(code).toBe(0);
    return { c, running: running!, rescoreLine: () => c.logs.find((l) => l['environment'] === 'production' && 'rescored' in l) };
  };

  it.runIf(enabled)('rescores every stored subscriber before listening, once: not again with the same rules', async () => {
    const a = await serve(configA);
    const post = (body: unknown) => fetch(`${a.running.url}/webhook`, { method: 'POST', body: JSON.stringify(body) });
    for (const body of [
      fixture('initial_purchase', { app_user_id: 'active', id: 'a1' }),
      fixture('initial_purchase', { app_user_id: 'billing', id: 'b1' }),
      fixture('billing_issue', { app_user_id: 'billing', id: 'b2', event_timestamp_ms: T0 + 1 }),
    ]) {
      expect((await post(body)).status).toBe(200);
    }
    await a.running.close();
    expect(await rows()).toEqual([
      { customer_id: 'active', score: 10, band: 'low' },
      { customer_id: 'billing', score: 90, band: 'critical' },
    ]);

    const b = await serve(configB);
    try {
      // Straight from the database, before any request: the rows carry B's scores and bands.
      expect(await rows()).toEqual([
        { customer_id: 'active', score: 35, band: 'high' },
        { customer_id: 'billing', score: 100, band: 'critical' },
      ]);
      expect(b.rescoreLine()).toMatchObject({ rescored: 2, config_source: configB, msg: expect.stringMatching(/^rules changed since the production at-risk rows were scored: rescored 2 subscribers in \d+ ms$/) });
      const listening = b.c.logs.findIndex((l) => typeof l['url'] === 'string');
      expect(b.c.logs.indexOf(b.rescoreLine()!)).toBeLessThan(listening);
      const atRisk = (await (await fetch(`${b.running.url}/api/at-risk`)).json()) as { items: { customer_id: string; risk_score: number; risk_band: string }[] };
      expect(atRisk.items.map((i) => [i.customer_id, i.risk_score, i.risk_band])).toEqual([
        ['billing', 100, 'critical'],
        ['active', 35, 'high'],
      ]);
    } finally {
      await b.running.close();
    }

    for (const same of [configB, configBCalibrated]) {
      const again = await serve(same); // the same rules; a calibration changes no score
      try {
        expect(again.rescoreLine()).toMatchObject({ rescored: 0, msg: 'production at-risk rows were scored with these rules: no rescore' });
      } finally {
        await again.running.close();
      }
    }
    expect((await rows()).map((r) => r.score)).toEqual([35, 100]);
  }, 30_000);
});
