// `tenure backfill` through the CLI entry (runCli) against the real simulator over HTTP, into a
// SQLite file: the summary, the exit codes, one line per failure, the checkpoint kept.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningBillingSim } from '@tenure/billing-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointName } from '../../src/backfill/backfill.js';
import { runCli } from '../../src/cli/runCli.js';
import { openStore } from '../../src/store/openStore.js';
import { subscribersAt } from '../helpers/storeAt.js';
import { populate, startSim } from './simPopulation.js';

let running: RunningBillingSim;
const dir = mkdtempSync(join(tmpdir(), 'tenure-backfill-cli-'));
beforeAll(async () => {
  running = await startSim(10_000, 60_000);
  populate(running, 12);
  // One sandbox customer: kept apart from production, as sandbox webhooks are.
  const bought = running.sim.dispatch({ type: 'purchase', project_id: 'proj_sim', customer_id: 'sbx1', product_id: 'monthly_plain', trial: false, presented_offering_id: null, country_code: null, environment: 'SANDBOX' });
  if (!bought.ok) throw new Error(JSON.stringify(bought));
});
afterAll(async () => {
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const fresh = () => join(dir, `store-${++n}.db`);
async function cli(args: string[], env: Record<string, string> = { REVENUECAT_API_KEY: 'sk_test' }) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), handleSignals: false, progressTty: false };
  const { code } = await runCli(['backfill', ...args], env, io);
  return { code, out: out.join(''), err: err.join('') };
}
const base = (path: string) => ['--project', 'proj_sim', '--base-url', `${running.url}/v2`, '--store', `sqlite:${path}`, '--clock', new Date(running.sim.now()).toISOString()];
const checkpointOf = async (path: string) => {
  const store = await openStore({ kind: 'sqlite', path });
  try {
    return await store.checkpoints.get(checkpointName('proj_sim', 'production'));
  } finally {
    await store.close();
  }
};

const customersIn = async (path: string) => (await subscribersAt(`sqlite:${path}`)).map((s) => s.customer_id);

describe('tenure backfill', () => {
  it('backfills every customer and prints a summary; a second run stores nothing new', async () => {
    const path = fresh();
    const first = await cli([...base(path), '--page-size', '5', '--json']);
    expect(first.code).toBe(0);
    expect(first.err).toMatch(/^backfill: 13 customers \(3 pages\) in .*events \d+ new, 0 duplicate/m);
    const report = JSON.parse(first.out);
    expect(report).toMatchObject({ complete: true, customers: 13, expected_customers: 13, rejected: 0 });
    expect(await customersIn(path)).not.toContain('sbx1');
    const second = await cli([...base(path), '--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.out)).toMatchObject({ complete: true, new: 0, duplicate: report.new });
    expect(await checkpointOf(path)).toBeUndefined();
  });

  it('draws a progress bar with an ETA on a terminal, from the customers it counted first', async () => {
    const err: string[] = [];
    const io = { stdout: () => undefined, stderr: (t: string) => void err.push(t), handleSignals: false, progressTty: true };
    expect((await runCli(['backfill', ...base(fresh()), '--page-size', '5'], { REVENUECAT_API_KEY: 'sk_test' }, io)).code).toBe(0);
    // The first page draws at once: 5 of the 13 customers counted, with the rest's ETA.
    expect(err[0]).toMatch(/^\rbackfill \[#+-+\]  38% 5\/13 customers .*5 of 13 customers, \d+ new events, 0 rate-limited  ETA /);
    expect(err.join('')).toMatch(/\r\x1b\[Kbackfill: 13 customers \(3 pages\)/);
  });

  it('stops after --max-pages with the checkpoint kept, and resumes from it', async () => {
    const path = fresh();
    const first = await cli([...base(path), '--page-size', '5', '--max-pages', '1']);
    expect(first.code).toBe(0);
    expect(first.err).toContain('stopped after 1 pages (--max-pages); run it again to resume');
    expect(JSON.parse((await checkpointOf(path)) ?? 'null')).toMatchObject({ starting_after: 'c004', customers: 5 });
    const second = await cli([...base(path), '--page-size', '5', '--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.out)).toMatchObject({ complete: true, customers: 13, resumed_customers: 5, expected_customers: 13, duplicate: 0, resumed_from: 'c004' });
  });

  it('a wrong key or an unknown project stops with one line and exit 1, keeping the checkpoint', async () => {
    const path = fresh();
    await cli([...base(path), '--page-size', '5', '--max-pages', '1']);
    const saved = await checkpointOf(path);
    const wrong = await cli([...base(path), '--page-size', '5'], { REVENUECAT_API_KEY: 'sk_wrong' });
    expect(wrong.code).toBe(1);
    expect(wrong.err.trim().split('\n')).toEqual([expect.stringMatching(/^tenure backfill: the API key was refused \(401 .*\): check REVENUECAT_API_KEY\. Nothing was written; a checkpoint .* is kept\.$/)]);
    const unknown = await cli(['--project', 'proj_nope', ...base(path).slice(2)]);
    expect(unknown.code).toBe(1);
    expect(unknown.err.trim().split('\n')).toEqual([expect.stringMatching(/^tenure backfill: project proj_nope not found at http.*\(404 .*\)\. Nothing was written; a checkpoint .* is kept\.$/)]);
    expect(await checkpointOf(path)).toBe(saved);
    // Refused before the store is opened: a store that did not exist is not created.
    const untouched = fresh();
    expect((await cli(base(untouched), { REVENUECAT_API_KEY: 'sk_wrong' })).code).toBe(1);
    expect(existsSync(untouched)).toBe(false);
  });

  it('--environment sandbox backfills sandbox subscriptions into the sandbox namespace only', async () => {
    const path = fresh();
    const r = await cli([...base(path), '--environment', 'sandbox', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ environment: 'sandbox', customers: 13, subscriptions: 1, purchases: 0 });
    expect(await customersIn(path.replace(/\.db$/, '.sandbox.db'))).toEqual(['sbx1']);
    expect(await customersIn(path)).toEqual([]);
  });

  it('refuses a missing key, bad flags and an in-process store before any request', async () => {
    expect(await cli(['--project', 'p1'], {})).toMatchObject({ code: 2, err: expect.stringContaining('set REVENUECAT_API_KEY') });
    expect(await cli(['--project', 'p1', '--api-key', 'sk'])).toMatchObject({ code: 2, err: expect.stringContaining("Unknown option '--api-key'") });
    expect(await cli([])).toMatchObject({ code: 2, err: expect.stringContaining('--project') });
    expect(await cli(['--project', 'p1', '--environment', 'staging'])).toMatchObject({ code: 2 });
    expect(await cli(['--project', 'p1', '--page-size', '101'])).toMatchObject({ code: 2, err: expect.stringContaining('--page-size must be a whole number from 1 to 100') });
    expect(await cli(['--project', 'p1', '--base-url', 'ftp://x'])).toMatchObject({ code: 2 });
    expect(await cli(['--project', 'p1', '--store', 'memory'])).toMatchObject({ code: 1, err: expect.stringContaining('lives inside one process') });
    expect((await cli(['--help'])).out).toContain('REVENUECAT_API_KEY');
  });
});
