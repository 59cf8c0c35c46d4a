// `backfill` against the real simulator over real HTTP, rate limits on (a short window, so the
// test is quick), into a SQLite store in a temporary directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningBillingSim } from '@tenure/billing-sim';
import { DEFAULT_CONFIG, type SubscriberStore } from '@tenure/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiV2Error, createApiV2Client, type ApiV2ClientOptions } from '../../src/backfill/apiV2Client.js';
import { backfill, checkpointName } from '../../src/backfill/backfill.js';
import { fixedClock } from '../../src/clock/clock.js';
import { openStore } from '../../src/store/openStore.js';
import { byWebhooks, factsOf, populate, startSim } from './simPopulation.js';

let dir: string;
const agree = async (store: SubscriberStore, sim: RunningBillingSim) => expect(await factsOf(store)).toEqual(await factsOf(await byWebhooks(sim)));
let running: RunningBillingSim | undefined;
const stores: SubscriberStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenure-backfill-'));
});
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close().catch(() => undefined);
  await running?.stop();
  running = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const sqlite = async (name = 'tenure.db') => {
  const store = await openStore({ kind: 'sqlite', path: join(dir, name) });
  stores.push(store);
  return store;
};
const client = (sim: RunningBillingSim, extra: Partial<ApiV2ClientOptions> = {}) =>
  createApiV2Client({ baseUrl: `${sim.url}/v2`, apiKey: 'sk_test', rateWindowMs: 1_000, retryBaseMs: 20, ...extra });
const options = (sim: RunningBillingSim) => ({ project: sim.sim.settings.default_project_id, clock: fixedClock(sim.sim.now()), config: DEFAULT_CONFIG, pageSize: 5 });

describe('backfill over API v2 from the simulator', () => {
  it('builds the subscribers webhooks build, waiting out the rate limit', async () => {
    running = await startSim(20, 1_000);
    populate(running, 24);
    const store = await sqlite();
    const report = await backfill(store, client(running), options(running));
    expect(report.complete).toBe(true);
    expect(report.customers).toBe(24);
    expect(report.rejections).toEqual([]);
    // 24 customers need ~75 requests against 20 a second: paced, or waited out (how many of each
    // depends on the machine's speed; the next test makes the 429s certain).
    expect(report.requests).toBeGreaterThan(70);
    expect(await store.checkpoints.get(checkpointName(report.project, 'production'))).toBeUndefined();
    await agree(store, running);
  });

  it('waits for Retry-After / backoff_ms on a 429 and retries the same request', async () => {
    // 4 requests per 2 s: ~17 requests get through without a 429 only if each took half a second.
    running = await startSim(4, 2_000);
    populate(running, 5);
    const store = await sqlite();
    // No pacing at all: every request runs into the limit, so only 429 handling gets it through.
    const report = await backfill(store, client(running, { paceAbove: Number.POSITIVE_INFINITY }), options(running));
    expect(report.complete).toBe(true);
    expect(report.rate_limited).toBeGreaterThan(0);
    expect(report.waited_ms).toBeGreaterThan(0);
    await agree(store, running);
  });

  it('resumes from the checkpoint after a stop, storing nothing twice', async () => {
    running = await startSim(1_000, 1_000);
    populate(running, 17);
    const store = await sqlite();
    const first = await backfill(store, client(running), { ...options(running), maxPages: 2 });
    expect(first.complete).toBe(false);
    expect(first.customers).toBe(10);
    const saved = JSON.parse((await store.checkpoints.get(checkpointName(first.project, 'production'))) ?? 'null');
    expect(saved).toMatchObject({ starting_after: 'c009', pages: 2, customers: 10 });
    const second = await backfill(store, client(running), options(running));
    expect(second.resumed_from).toBe('c009');
    expect(second).toMatchObject({ complete: true, customers: 17, pages: 4, duplicate: 0 });
    await agree(store, running);
    // A third run from the start stores nothing new.
    const third = await backfill(store, client(running), options(running));
    expect(third).toMatchObject({ complete: true, new: 0 });
    expect(third.duplicate).toBe(first.new + second.new);
  });

  it('stops between customers when its signal aborts, and resumes from the last page stored', async () => {
    running = await startSim(1_000, 1_000);
    populate(running, 12);
    const store = await sqlite();
    const controller = new AbortController();
    const cut = backfill(store, client(running, { signal: controller.signal }), { ...options(running), signal: controller.signal, onPage: (r) => r.pages === 1 && controller.abort(new Error('interrupted')) });
    await expect(cut).rejects.toThrow('interrupted');
    expect(JSON.parse((await store.checkpoints.get(checkpointName('proj_sim', 'production'))) ?? 'null')).toMatchObject({ starting_after: 'c004', pages: 1 });
    const rest = await backfill(store, client(running), options(running));
    expect(rest).toMatchObject({ complete: true, customers: 12, duplicate: 0, resumed_from: 'c004' });
    await agree(store, running);
  });

  it('a checkpoint whose customer was deleted says to --restart, and restart starts over', async () => {
    running = await startSim(1_000, 1_000);
    populate(running, 12);
    const store = await sqlite();
    await backfill(store, client(running), { ...options(running), maxPages: 1 });
    const name = checkpointName('proj_sim', 'production');
    const saved = await store.checkpoints.get(name);
    const deleted = await fetch(`${running.url}/v2/projects/proj_sim/customers/c004`, { method: 'DELETE', headers: { authorization: 'Bearer sk_test' } });
    expect(deleted.status).toBe(200);
    await expect(backfill(store, client(running), options(running))).rejects.toMatchObject({ kind: 'request', message: expect.stringContaining('run with --restart to start over') });
    await expect(backfill(store, client(running), { ...options(running), countFirst: true })).rejects.toMatchObject({ message: expect.stringContaining('run with --restart to start over') });
    expect(await store.checkpoints.get(name)).toBe(saved);
    const over = await backfill(store, client(running), { ...options(running), restart: true });
    expect(over).toMatchObject({ complete: true, customers: 11, resumed_from: null });
  });

  it('stops on a wrong key or an unknown project, keeping the checkpoint', async () => {
    running = await startSim(1_000, 1_000);
    populate(running, 12);
    const store = await sqlite();
    await backfill(store, client(running), { ...options(running), maxPages: 1 });
    const name = checkpointName(running.sim.settings.default_project_id, 'production');
    const before = await store.checkpoints.get(name);
    expect(before).toBeDefined();
    const wrongKey = backfill(store, client(running, { apiKey: 'sk_wrong' }), options(running));
    await expect(wrongKey).rejects.toMatchObject({ kind: 'authentication', status: 401 });
    expect(await store.checkpoints.get(name)).toBe(before);
    const unknown = backfill(store, client(running), { ...options(running), project: 'proj_nope' });
    await expect(unknown).rejects.toBeInstanceOf(ApiV2Error);
    await expect(unknown).rejects.toMatchObject({ kind: 'not_found', status: 404 });
    expect(await store.checkpoints.get(name)).toBe(before);
  });
});
