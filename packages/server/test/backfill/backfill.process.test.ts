// `tenure backfill` as a real process (from source): interrupted by SIGINT while it waits out a
// 429, it exits 130 with one line, keeping the checkpoint of the pages it stored; run again, it
// resumes there and ends with the same subscribers as the simulator's webhooks.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningBillingSim } from '@tenure/billing-sim';
import { DEFAULT_CONFIG } from '@tenure/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiV2Client } from '../../src/backfill/apiV2Client.js';
import { backfill, checkpointName } from '../../src/backfill/backfill.js';
import { fixedClock } from '../../src/clock/clock.js';
import { openStore } from '../../src/store/openStore.js';
import { byWebhooks, factsOf, populate, startSim } from './simPopulation.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

let running: RunningBillingSim | undefined;
let dir: string | undefined;
afterEach(async () => {
  await running?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const checkpointIn = async (path: string) => {
  const store = await openStore({ kind: 'sqlite', path });
  try {
    return await store.checkpoints.get(checkpointName('proj_sim', 'production'));
  } finally {
    await store.close();
  }
};

describe('tenure backfill (process)', () => {
  it('exits 130 on SIGINT while rate limited, keeping the checkpoint; a second run resumes', async () => {
    // 10 requests per 3 s: a page of 2 customers is 7 requests, so the second page runs into a 429.
    running = await startSim(10, 3_000);
    populate(running, 6);
    dir = mkdtempSync(join(tmpdir(), 'tenure-backfill-process-'));
    const path = join(dir, 'tenure.db');
    const env: Record<string, string> = { REVENUECAT_API_KEY: 'sk_test' };
    for (const key of ['PATH', 'HOME', 'TMPDIR']) if (process.env[key] !== undefined) env[key] = process.env[key];
    const args = ['backfill', '--project', 'proj_sim', '--base-url', `${running.url}/v2`, '--store', `sqlite:${path}`, '--page-size', '2', '--clock', new Date(running.sim.now()).toISOString()];
    const child = spawn(process.execPath, ['--conditions=@tenure/source', '--import', 'tsx', cli, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Once a page is stored (the checkpoint exists), interrupt it: it is paging or waiting out a 429.
    const deadline = performance.now() + 60_000;
    while ((await checkpointIn(path).catch(() => undefined)) === undefined && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr.trim().split('\n').at(-1)).toMatch(/^tenure backfill: interrupted\. .*checkpoint is kept/);
    const saved = JSON.parse((await checkpointIn(path)) ?? 'null') as { customers: number };
    expect(saved.customers).toBeGreaterThanOrEqual(2);
    expect(saved.customers).toBeLessThan(6);

    const store = await openStore({ kind: 'sqlite', path });
    try {
      const api = createApiV2Client({ baseUrl: `${running.url}/v2`, apiKey: 'sk_test', rateWindowMs: 3_000 });
      const rest = await backfill(store, api, { project: 'proj_sim', clock: fixedClock(running.sim.now()), config: DEFAULT_CONFIG, pageSize: 2 });
      expect(rest).toMatchObject({ complete: true, customers: 6 });
      expect(rest.resumed_from).not.toBeNull();
      expect(await factsOf(store)).toEqual(await factsOf(await byWebhooks(running)));
    } finally {
      await store.close();
    }
  }, 90_000);
});
