// `tenure backfill` of a project whose purchases are all in the other environment (the simulator's
// Test Store and development purchases are sandbox): the summary says what the other environment
// holds and how to read it, instead of a silent "0 subscriptions".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningBillingSim } from '@tenure/billing-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherEnvironmentLine } from '../../src/backfill/probeEnvironment.js';
import { runCli } from '../../src/cli/runCli.js';
import { startSim } from './simPopulation.js';

let running: RunningBillingSim;
const dir = mkdtempSync(join(tmpdir(), 'tenure-backfill-env-'));
beforeAll(async () => {
  running = await startSim(10_000, 60_000);
  const project_id = running.sim.settings.default_project_id;
  const buy = (customer_id: string, product_id: string, environment: 'SANDBOX' | 'PRODUCTION') => {
    const r = running.sim.dispatch({ type: 'purchase', project_id, customer_id, product_id, trial: false, presented_offering_id: null, country_code: null, environment });
    if (!r.ok) throw new Error(JSON.stringify(r));
  };
  buy('sbx1', 'monthly_plain', 'SANDBOX');
  buy('sbx2', 'annual', 'SANDBOX');
  buy('sbx2', 'pack', 'SANDBOX');
});
afterAll(async () => {
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), handleSignals: false, progressTty: false };
  const path = join(dir, `store-${++n}.db`);
  const { code } = await runCli(['backfill', '--project', 'proj_sim', '--base-url', `${running.url}/v2`, '--store', `sqlite:${path}`, '--clock', new Date(running.sim.now()).toISOString(), ...args], { REVENUECAT_API_KEY: 'sk_test' }, io);
  return { code, out: out.join(''), err: err.join('') };
}

describe('tenure backfill of an environment that holds nothing', () => {
  it('says what sandbox holds and how to read it, in the summary and the JSON report', async () => {
    const r = await cli(['--json']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^backfill: 2 customers .*: 0 subscriptions, 0 purchases;/m);
    expect(r.err).toContain(
      'tenure backfill: production holds no subscription or purchase of its 2 customers, but sandbox does (of the first 2 customers, 2 have 2 subscriptions and 1 purchase there): run it again with --environment sandbox to read them (into the sandbox store, as sandbox webhooks go).',
    );
    expect(JSON.parse(r.out)).toMatchObject({
      environment: 'production',
      subscriptions: 0,
      other_environment: { environment: 'sandbox', customers_sampled: 2, customers_with_history: 2, subscriptions: 2, purchases: 1 },
    });
  });

  it('reads them with --environment sandbox, and then says nothing more', async () => {
    const r = await cli(['--environment', 'sandbox', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ environment: 'sandbox', customers: 2, subscriptions: 2, purchases: 1 });
    expect(JSON.parse(r.out)).not.toHaveProperty('other_environment');
    expect(r.err).not.toMatch(/run it again with --environment/);
  });

  it('stays quiet when the other environment holds nothing either', () => {
    expect(otherEnvironmentLine('production', 3, { environment: 'sandbox', customers_sampled: 3, customers_with_history: 0, subscriptions: 0, purchases: 0 })).toBeNull();
  });
});
