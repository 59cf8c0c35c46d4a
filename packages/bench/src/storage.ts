/**
 * The storage benches of issue #8, over one synthetic subscriber base (1 M by default) loaded into
 * each store with `applyEvents`:
 * - `atrisk`: the old full scan (`selectAtRisk` over every subscriber, what the server ran per
 *   request) at 100 k and 1 M as the baseline, then `store.atRisk` on memory, SQLite and PostgreSQL
 *   with the clock moving 1 s per query; the stores' answers are checked against the full scan.
 * - `replay`: `store.replay` of every stored event, beside folding and materializing the same events
 *   in plain JS.
 * - `parallel`: webhook p99 of `tenure serve` with and without an at-risk reader (SQLite with the
 *   base, memory).
 * - `rss`: resident memory of `tenure serve` on the SQLite file holding the base.
 * The load rate of each store is reported with the first two. Each store's load, queries and replay
 * run in a process of their own.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CONFIG } from '@tenure/core';
import { measureFullScan, type ScanResult } from './store/atRiskBench.js';
import { AT_RISK_QUERY_KINDS } from './store/atRiskQueries.js';
import { benchDatabaseUrl, benchTempDir, noticeNoPostgres, openBenchStore, removeBenchDir, type StoreKind } from './store/benchStores.js';
import { collectGarbage, ms, printTable, rate } from './store/latency.js';
import { loadStore, measureFoldBaseline, type LoadResult } from './store/loadStore.js';
import type { StoreRun } from './store/storeRun.js';
import { runStoreInChild } from './store/storeWorker.js';
import { runParallelBench } from './store/parallelBench.js';
import { runRssBench } from './store/rssBench.js';
import { checkSyntheticEvents, syntheticSubscribers } from './store/syntheticSubscribers.js';

export const STORAGE_BENCHES = ['atrisk', 'replay', 'parallel', 'rss'] as const;
export type StorageBench = (typeof STORAGE_BENCHES)[number];

const config = DEFAULT_CONFIG;
const SUBSCRIBERS = Number(process.env['BENCH_SUBSCRIBERS'] ?? 1_000_000);
const QUERIES_PER_KIND = Number(process.env['BENCH_QUERIES'] ?? 200);
const SCAN_RUNS = Number(process.env['BENCH_SCAN_RUNS'] ?? 5);
const STEP_MS = 1000;
/** What the issue measured with the old server (memory store, 2 cores), for the reproduction table. */
const ISSUE_MS: Record<string, Record<number, number>> = {
  'default (min_score = bands.high)': { 100_000: 173, 1_000_000: 2300 },
  'min_score=90&limit=10': { 1_000_000: 2300 },
  'state=billing_issue': { 1_000_000: 1300 },
};

const sec = (s: number) => `${s.toFixed(1)} s`;
const size = (n: number) => (n >= 1e6 ? `${+(n / 1e6).toFixed(2)} M` : `${+(n / 1e3).toFixed(1)} k`);

function printAtRisk(scans: ScanResult[], runs: StoreRun[]): void {
  console.log(`\natrisk, reproducing the issue: the old way, a full scan (selectAtRisk: assess everyone, filter, sort, page), median of ${SCAN_RUNS} scans`);
  printTable(
    ['subscribers: query', 'full scan median', 'issue measured'],
    scans.map((s) => [`${size(s.subscribers)}: ${s.kind}`, ms(s.median), ISSUE_MS[s.kind]?.[s.subscribers] === undefined ? '' : ms(ISSUE_MS[s.kind]![s.subscribers]!)]),
  );
  const queried = runs.filter((r) => r.queries !== undefined);
  if (queried.length === 0) return;
  const big = scans.filter((s) => s.subscribers === Math.max(...scans.map((x) => x.subscribers)));
  console.log(`\natrisk from the store index, ${size(SUBSCRIBERS)} subscribers, ${QUERIES_PER_KIND} queries per kind round robin, clock +1 s per query (rows come due); p50 / p99, and × faster than the full scan at p50`);
  printTable(
    ['query', 'full scan (baseline)', ...queried.map((r) => `${r.kind} p50 / p99`), ...queried.map((r) => `${r.kind} ×`)],
    AT_RISK_QUERY_KINDS.map((kind, k) => {
      const scan = big.find((s) => s.kind === kind.name)?.median ?? NaN;
      return [
        kind.name,
        ms(scan),
        ...queried.map((r) => `${ms(r.queries![k]!.latency.p50)} / ${ms(r.queries![k]!.latency.p99)}`),
        ...queried.map((r) => (scan / r.queries![k]!.latency.p50).toFixed(0)),
      ];
    }),
  );
  console.log('');
  for (const r of queried) {
    const first = r.queries!.slice(0, 4);
    const worst = Math.max(...first.map((q) => q.latency.p99));
    const cpuWorst = Math.max(...first.map((q) => q.cpu.p99));
    const preempted = r.queries!.reduce((sum, q) => sum + q.preempted, 0);
    const asked = r.queries!.reduce((sum, q) => sum + q.latency.n, 0);
    console.log(`bar: ${worst <= 10 ? 'MET ' : 'MISS'} ${r.kind}: first pages p99 ≤ 10 ms (worst ${ms(worst)}; second page p99 ${ms(r.queries![4]!.latency.p99)}; CPU per query p99 ${ms(cpuWorst)}; ${preempted} of ${asked} queries preempted by other processes)${r.problems !== undefined && r.problems.length > 0 ? ' — ANSWERS DIFFER FROM THE FULL SCAN' : ''}`);
  }
}

function printLoadAndReplay(baseline: LoadResult, runs: StoreRun[]): void {
  const baseRate = baseline.events / baseline.seconds;
  console.log(`\nload: applyEvents in batches of 10,000 events (one transaction each), ${size(SUBSCRIBERS)} subscribers`);
  printTable(
    ['store', 'events', 'time', 'events/s', 'subscribers/s', '× baseline', 'note'],
    [
      ['fold + materialize in JS, no store (baseline)', baseline.events.toLocaleString('en'), sec(baseline.seconds), rate(baseRate), rate(baseline.subscribers / baseline.seconds), 'baseline', ''],
      ...runs.map((r) => [
        r.kind,
        r.load.events.toLocaleString('en'),
        sec(r.load.seconds),
        rate(r.load.events / r.load.seconds),
        rate(r.load.subscribers / r.load.seconds),
        (r.load.events / r.load.seconds / baseRate).toFixed(2),
        r.heapBytesPerSubscriber === undefined ? '' : `heap ${r.heapBytesPerSubscriber.toFixed(0)} B/subscriber (events kept)`,
      ]),
    ],
  );
  const replayed = runs.filter((r) => r.replay !== undefined);
  if (replayed.length === 0) return;
  console.log(`\nreplay: store.replay of every stored event (rebuild subscribers and rows)`);
  printTable(
    ['store', 'events', 'time', 'events/s', 'subscribers/s', '× baseline'],
    [
      ['fold + materialize in JS, no store (baseline)', baseline.events.toLocaleString('en'), sec(baseline.seconds), rate(baseRate), rate(baseline.subscribers / baseline.seconds), 'baseline'],
      ...replayed.map((r) => [
        r.kind,
        r.replay!.events.toLocaleString('en'),
        sec(r.replay!.seconds),
        rate(r.replay!.events / r.replay!.seconds),
        rate(r.replay!.subscribers / r.replay!.seconds),
        (r.replay!.events / r.replay!.seconds / baseRate).toFixed(2),
      ]),
    ],
  );
}

/** Runs the selected storage benches (all four when `wants` is empty). */
export async function runStorageBench(wants: Set<StorageBench>): Promise<void> {
  if (wants.size === 0) for (const b of STORAGE_BENCHES) wants.add(b);
  // Half an hour in the past: the in-process queries move the clock forward from here, and the
  // services started later on the SQLite file (wall clock) find rows that came due meanwhile.
  const now = Math.floor(Date.now() / 1000) * 1000 - 30 * 60_000;
  const postgresUrl = benchDatabaseUrl();
  const sqlitePath = join(benchTempDir(), 'subscribers.db');
  const kinds = (process.env['BENCH_STORES'] ?? 'memory,sqlite,postgres').split(',') as StoreKind[];
  console.log(`\nstorage: synthetic base of ${SUBSCRIBERS.toLocaleString('en')} subscribers at ${new Date(now).toISOString()} (stores: ${kinds.join(', ')})`);
  checkSyntheticEvents(2000, now);
  try {
    const runs: StoreRun[] = [];
    if (wants.has('atrisk') || wants.has('replay')) {
      const scans: ScanResult[] = [];
      if (wants.has('atrisk')) {
        const t = performance.now();
        const reference = syntheticSubscribers(SUBSCRIBERS, now);
        console.log(`  folded the base in ${sec((performance.now() - t) / 1000)}; timing full scans…`);
        if (SUBSCRIBERS > 100_000) scans.push(...measureFullScan(reference.slice(0, 100_000), now, config, SCAN_RUNS * 2 - 1));
        scans.push(...measureFullScan(reference, now, config, SCAN_RUNS));
      }
      collectGarbage();
      const baseline = measureFoldBaseline(SUBSCRIBERS, now, config);
      for (const kind of kinds) {
        if (kind === 'postgres' && postgresUrl === undefined) {
          noticeNoPostgres('storage');
          continue;
        }
        runs.push(
          await runStoreInChild({
            kind,
            subscribers: SUBSCRIBERS,
            now,
            atRisk: wants.has('atrisk'),
            replay: wants.has('replay'),
            queriesPerKind: QUERIES_PER_KIND,
            stepMs: STEP_MS,
            verify: process.env['BENCH_VERIFY'] !== '0',
            sqlitePath,
            postgresUrl,
          }),
        );
      }
      if (wants.has('atrisk')) printAtRisk(scans, runs);
      printLoadAndReplay(baseline, runs);
    }
    if (wants.has('parallel') || wants.has('rss')) {
      if (!runs.some((r) => r.kind === 'sqlite')) {
        const opened = await openBenchStore('sqlite', { sqlitePath });
        try {
          const load = await loadStore(opened.store, SUBSCRIBERS, now, config);
          console.log(`  sqlite: loaded ${load.events.toLocaleString('en')} events in ${sec(load.seconds)} for the service benches`);
        } finally {
          await opened.dispose();
        }
      }
      if (wants.has('parallel')) await runParallelBench(sqlitePath, SUBSCRIBERS, now);
      if (wants.has('rss')) await runRssBench(sqlitePath, SUBSCRIBERS);
    }
  } finally {
    removeBenchDir();
  }
}
