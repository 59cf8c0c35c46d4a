// `tenure backfill` as a real process (from source): interrupted by SIGINT while it paces itself
// near the rate limit, it exits 130 with one line, keeping the checkpoint of the pages it stored; run again, it
// resumes there and ends with the same subscribers as the simulator's webhooks.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
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
    // 10 requests per 6 s: a page of 2 customers is 7 requests, so the first page nears the limit.
    running = await startSim(10, 6_000);
    populate(running, 6);
    // The child paces itself once an answer says 8 of the 10 are used (the next request waits 6 s:
    // the CLI assumes RevenueCat's minute) and waits out a 429. Each such answer is a sign that it is
    // certainly waiting, however slowly a loaded machine runs it; the first sign after a page is
    // stored (checkpointed) is the moment to interrupt it.
    let signs = 0;
    let onSign = () => {};
    // First of the listeners, so it sees the headers the simulator hands writeHead (a flat list).
    running.server.prependListener('request', (_request, response: ServerResponse) => {
      const writeHead = response.writeHead.bind(response) as (status: number, headers?: unknown) => ServerResponse;
      response.writeHead = ((status: number, headers?: unknown) => {
        const list = Array.isArray(headers) ? (headers as string[]) : [];
        const at = list.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === 'revenuecat-rate-limit-current-usage');
        if (status === 429 || (at >= 0 && Number(list[at + 1]) >= 8)) {
          signs += 1;
          setImmediate(onSign);
        }
        return writeHead(status, headers);
      }) as typeof response.writeHead;
    });
    const signAfter = (seen: number) =>
      new Promise<void>((resolve) => {
        onSign = () => {
          if (signs > seen) resolve();
        };
        onSign();
      });
    dir = mkdtempSync(join(tmpdir(), 'tenure-backfill-process-'));
    const path = join(dir, 'tenure.db');
    const env: Record<string, string> = { REVENUECAT_API_KEY: 'sk_test' };
    for (const key of ['PATH', 'HOME', 'TMPDIR']) if (process.env[key] !== undefined) env[key] = process.env[key];
    const args = ['backfill', '--project', 'proj_sim', '--base-url', `${running.url}/v2`, '--store', `sqlite:${path}`, '--page-size', '2', '--clock', new Date(running.sim.now()).toISOString()];
    const child = spawn(process.execPath, ['--conditions=@tenure/source', '--import', 'tsx', cli, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    for (let seen = 0; ; seen = signs) {
      expect(await Promise.race([signAfter(seen).then(() => 'waiting'), exited.then((code) => `exited ${code}: ${stderr}`)])).toBe('waiting');
      if ((await checkpointIn(path).catch(() => undefined)) !== undefined) break;
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr.trim().split('\n').at(-1)).toMatch(/^tenure backfill: interrupted\. .*checkpoint is kept/);
    const saved = JSON.parse((await checkpointIn(path)) ?? 'null') as { customers: number };
    expect(saved.customers).toBeGreaterThanOrEqual(2);
    expect(saved.customers).toBeLessThan(6);

    const store = await openStore({ kind: 'sqlite', path });
    try {
      const api = createApiV2Client({ baseUrl: `${running.url}/v2`, apiKey: 'sk_test', rateWindowMs: 6_000 });
      const rest = await backfill(store, api, { project: 'proj_sim', clock: fixedClock(running.sim.now()), config: DEFAULT_CONFIG, pageSize: 2 });
      expect(rest).toMatchObject({ complete: true, customers: 6 });
      expect(rest.resumed_from).not.toBeNull();
      expect(await factsOf(store)).toEqual(await factsOf(await byWebhooks(running)));
    } finally {
      await store.close();
    }
  }, 90_000);
});
