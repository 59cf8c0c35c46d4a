/**
 * `npm run bench -- quick` (issue #21): a regression guard that runs in under a minute. For each row
 * of issue #21's table (and issue #20's API v1 row) it runs the full bench's own measuring function
 * at a smaller size or a shorter load, and prints the figure beside its goal with MET or MISS. Each
 * ratio is to a baseline measured in the same run; the two absolute goals (peak RSS, the simulator's
 * month) are measured at a smaller size and scaled linearly to the goal's size, as printed. Each row
 * is printed beside the last run's figure on this machine (`quickHistory.ts`). Timings are not
 * tests: it always exits 0 and is not part of `npm test`.
 */
import { performance } from 'node:perf_hooks';
import type { Transport } from '@tenure/billing-sim';
import type { StoredRecord } from '@tenure/core';
import { runCoreBench } from './core.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { foldHistory, phase } from './evaluation/backtestBench.js';
import { runBacktestProcess, type BacktestRun } from './evaluation/backtestProcess.js';
import { writeHistoryFile } from './evaluation/historyFile.js';
import { populationHistory } from './evaluation/populationHistory.js';
import { mb } from './processUsage.js';
import { runServerBench } from './server.js';
import { runMonth } from './sim.js';
import { currentCommit, lastRunCell, quickHistoryFile, readLastRun, writeLastRun } from './quickHistory.js';
import { printTable, rate } from './store/latency.js';
import { syntheticWebhookStrings } from './syntheticEvents.js';
import { runV1Bench } from './v1.js';

/** The sizes `quick` uses, beside the full benches' (named in each row). */
const BACKTEST_CUSTOMERS = 20_000;
/** The backtest's peak RSS is read at these sizes, with one activity report in `BACKTEST_ACTIVITY_EVERY` kept. */
const BACKTEST_RSS_SIZES = [40_000, 80_000] as const;
const BACKTEST_ACTIVITY_EVERY = 8;
/** The core the backtest children run on: `npm run bench` pins this process to core 1. */
const CHILD_CORE = '0';
const BACKTEST_GOAL_CUSTOMERS = 200_000;
const BACKTEST_MONTHS = 6;
const CORE_BODIES = 100_000;
const CORE_ROUNDS = 2;
const SIM_SUBSCRIPTIONS = 20_000;
const SIM_GOAL_SUBSCRIPTIONS = 100_000;
const HTTP_BODIES = 150_000;
const HTTP_WARMUP_SECONDS = 1;
const HTTP_SECONDS = 1;
const HTTP_ROUNDS = 3;
const V1_CUSTOMERS = 2_000;
const V1_ROUNDS = 2;
// The v1 row's figure sits at twice its goal (0.54–0.72 × against 0.3 ×), so short rounds read it well enough.
const V1_SECONDS = 1.5;
const V1_WARMUP_SECONDS = 0.5;

interface Row {
  measure: string;
  value: number;
  /** The figure as printed, e.g. `0.32 ×` or `1.63 GB`. */
  shown: string;
  goal: number;
  /** `min`: the figure must reach the goal; `max`: it must stay under it. */
  kind: 'min' | 'max';
  goalShown: string;
  how: string;
}

const met = (row: Row) => (row.kind === 'min' ? row.value >= row.goal : row.value <= row.goal);
const times = (ratio: number) => `${ratio.toFixed(2)} ×`;
const ratioRow = (measure: string, ratio: number, goal: number, how: string): Row => ({
  measure,
  value: ratio,
  shown: times(ratio),
  goal,
  kind: 'min',
  goalShown: `≥ ${goal} ×`,
  how,
});

/**
 * Peak RSS of `tenure backtest FILE` (the built CLI in a child process) on generated histories of
 * `BACKTEST_RSS_SIZES` customers, projected to the goal's size along the growth between them (flat
 * when the history is spilled to disk), and the fold of the events alone. The sizes are apart and
 * past the spill's SQLite page cache filling up (32 MiB, which is most of the growth below ~40 k
 * customers and then stops), so what the projection multiplies (by 3) is the growth of the walk, not
 * of the cache (20 k and 60 k read 211–433 MB run to run; 40 k and 120 k, whose larger child took a
 * third of quick's time, 183–242 MB); the activity reports are thinned to keep the two runs short (one in `BACKTEST_ACTIVITY_EVERY`; the full bench
 * keeps them all).
 */
async function backtestRows(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenure-bench-quick-'));
  const [smallSize, largeSize] = BACKTEST_RSS_SIZES;
  const fileOf = (customers: number) => join(dir, `history-${customers}.ndjson`);
  const write = (customers: number) => writeHistoryFile(fileOf(customers), { customers, months: BACKTEST_MONTHS, seed: 'bench', activityEvery: BACKTEST_ACTIVITY_EVERY });
  let small: BacktestRun;
  let large: BacktestRun;
  let records: StoredRecord[];
  try {
    // Each child runs on the other core while this process writes the next file or builds the
    // fold's history (a child's peak RSS, the figure read here, does not depend on the CPU it
    // shares; nothing timed runs meanwhile): the row took ~25 s one step after the other.
    await write(smallSize);
    const smallRun = runBacktestProcess(fileOf(smallSize), CHILD_CORE);
    smallRun.catch(() => undefined); // awaited below; a failed write must not leave it unhandled
    await write(largeSize);
    small = await smallRun;
    const largeRun = runBacktestProcess(fileOf(largeSize), CHILD_CORE);
    largeRun.catch(() => undefined);
    records = populationHistory({ customers: BACKTEST_CUSTOMERS, months: BACKTEST_MONTHS, seed: 'bench' }).records;
    large = await largeRun;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const steps = (BACKTEST_GOAL_CUSTOMERS - largeSize) / (largeSize - smallSize);
  const projected = large.peakRssBytes + Math.max(0, large.peakRssBytes - small.peakRssBytes) * steps;
  const events = records.reduce((n, r) => n + (r.kind === 'event' ? 1 : 0), 0);
  // Best of two: the fold is short at this size, so one scavenge more or less moves it.
  // One fold first, not measured: at this size the optimizing compiler's warm-up is a large part of a
  // cold run, where the full bench's 200 k customers amortize it.
  foldHistory(records, () => {}, true);
  const folds = [await phase((sampleHeap) => foldHistory(records, sampleHeap, true)), await phase((sampleHeap) => foldHistory(records, sampleHeap, true))];
  const foldRate = (events * 1000) / Math.min(...folds.map((f) => f.cpuMs));
  const history = `${BACKTEST_CUSTOMERS.toLocaleString('en')} customers × ${BACKTEST_MONTHS} months (full: 200 k)`;
  return [
    {
      measure: 'foldEventsByCustomer, events/s (CPU)',
      value: foldRate,
      shown: rate(foldRate),
      goal: 1e6,
      kind: 'min',
      goalShown: '≥ 1 M/s',
      how: `${events.toLocaleString('en')} events of ${history}, best of 2 after a warm-up`,
    },
    {
      measure: 'tenure backtest peak RSS, projected to 200 k',
      value: projected / 1_048_576,
      shown: mb(projected),
      goal: 512,
      kind: 'max',
      goalShown: '≤ 512 MB',
      how:
        `tenure backtest FILE (child process, built CLI), ${BACKTEST_MONTHS} months, 1 activity report in ${BACKTEST_ACTIVITY_EVERY}: ` +
        `${mb(small.peakRssBytes)} at ${smallSize.toLocaleString('en')}, ${mb(large.peakRssBytes)} at ${largeSize.toLocaleString('en')} customers ` +
        `(${((small.cpuMs + large.cpuMs) / 1000).toFixed(1)} s CPU); + growth × ${steps.toFixed(1)} (full: 200 k, every report)`,
    },
  ];
}

/** The core's replay, cache-resident fold and whole pipeline, each to JSON.parse of the same bodies. */
function coreRows(): Row[] {
  const { baseline, named } = runCoreBench(CORE_BODIES, CORE_BODIES, { rounds: CORE_ROUNDS, print: false });
  const ratio = (m: typeof baseline) => m.perSecond / baseline.perSecond;
  const how = `${CORE_BODIES.toLocaleString('en')} bodies, one pass, best of ${CORE_ROUNDS} (full: 10 passes, best of 5)`;
  return [
    ratioRow('applyEvent + scoreSubscriber, replay, ÷ JSON.parse', ratio(named.applyScore), 10, how),
    ratioRow('the same, 2,000 cache-resident events, ÷ JSON.parse', ratio(named.applyScoreHot), 25, how),
    ratioRow('string → parse → apply → score → recommend, ÷ JSON.parse', ratio(named.pipeline), 0.5, how),
  ];
}

/** One simulated month advanced and delivered in process, scaled to 100 k subscriptions. */
async function simRow(): Promise<Row> {
  const sink: Transport = async () => ({ status: 200 });
  // A smaller month first, not measured: at this size the optimizing compiler's warm-up would be a
  // fifth of the figure (measured: 685 ms cold, 360–380 ms warm), where the full bench's 100 k amortize it.
  await runMonth(SIM_SUBSCRIPTIONS / 4, sink, 'http://sink.local/webhook');
  const month = await runMonth(SIM_SUBSCRIPTIONS, sink, 'http://sink.local/webhook');
  const scale = SIM_GOAL_SUBSCRIPTIONS / SIM_SUBSCRIPTIONS;
  const projected = month.deliveredMs * scale;
  return {
    measure: 'simulator month, advance + deliver, projected to 100 k',
    value: projected / 1000,
    shown: `${(projected / 1000).toFixed(2)} s`,
    goal: 2,
    kind: 'max',
    goalShown: '≤ 2 s',
    how:
      `${SIM_SUBSCRIPTIONS.toLocaleString('en')} subscriptions after a warm-up month of ${(SIM_SUBSCRIPTIONS / 4).toLocaleString('en')}, ${month.events.toLocaleString('en')} events: ${month.deliveredMs.toFixed(0)} ms wall × ${scale}; ` +
      `${times(month.stringifyMs / month.deliveredMs)} JSON.stringify of the bodies`,
  };
}

/**
 * Webhook ingest on the memory store and a SQLite file, each to bare node:http: the three targets
 * started and warmed once, then `HTTP_ROUNDS` alternated rounds of `HTTP_SECONDS` each, the median
 * of the rounds' ratios (one round of 3 s read ±0.1 run to run).
 */
async function ingestRows(): Promise<Row[]> {
  const result = await runServerBench({
    keys: ['bare', 'memory', 'sqlite'],
    warmupSeconds: HTTP_WARMUP_SECONDS,
    seconds: HTTP_SECONDS,
    rounds: HTTP_ROUNDS,
    keepUp: true,
    bodies: syntheticWebhookStrings(HTTP_BODIES),
  });
  const how = `50 connections, targets kept up: ${HTTP_WARMUP_SECONDS} s warm-up each, median of ${HTTP_ROUNDS} alternated rounds of ${HTTP_SECONDS} s (full: 3 + 10 s, a fresh target a round)`;
  return [
    ratioRow('tenure serve ingest, memory store, ÷ bare node:http', result.ratio('memory', 'bare') ?? NaN, 0.7, how),
    ratioRow('ingest, SQLite file, ÷ bare node:http', result.ratio('sqlite', 'bare') ?? NaN, 0.5, how),
  ];
}

/** API v1 customer info to a bare server answering one stored body. */
async function v1Row(): Promise<Row> {
  const ratio = await runV1Bench({ customers: V1_CUSTOMERS, rounds: V1_ROUNDS, seconds: V1_SECONDS, warmupSeconds: V1_WARMUP_SECONDS });
  return ratioRow(
    'GET /v1/subscribers/{id} ÷ bare node:http (issue #20)',
    ratio,
    0.3,
    `${V1_CUSTOMERS.toLocaleString('en')} customers, ${V1_WARMUP_SECONDS} s warm-up, median of ${V1_ROUNDS} alternated rounds of ${V1_SECONDS} s (full: 10,000, 3 of 5 s)`,
  );
}

/** Runs every row, prints the table and the count; never fails on a MISS. */
export async function runQuickBench(): Promise<void> {
  const started = performance.now();
  console.log('quick (issue #21): each row of the issue at a smaller size or a shorter load (sizes under the table)');
  // Each part's wall time, printed at the end: the guard must stay under a minute.
  const spent: string[] = [];
  const timed = async <T>(name: string, run: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const out = await run();
    spent.push(`${name} ${((performance.now() - start) / 1000).toFixed(1)} s`);
    return out;
  };
  // The core rows first: the reducer's inline caches then learn the webhook bodies' shapes, as in
  // `npm run bench -- core` and in a receiver; after a fold of the generated history's events (other
  // shapes) the same rows read 5–30 % lower. The backtest's RSS is its child processes'.
  const rows = [
    ...(await timed('core', coreRows)),
    ...(await timed('backtest and fold', backtestRows)),
    await timed('simulator month', simRow),
    ...(await timed('ingest', ingestRows)),
    await timed('v1', v1Row),
  ];
  const historyFile = quickHistoryFile();
  const last = historyFile === null ? undefined : readLastRun(historyFile);
  console.log('');
  printTable(
    ['measure', 'today', 'goal', '', 'last run (change)'],
    rows.map((row) => [row.measure, row.shown, row.goalShown, met(row) ? 'MET' : 'MISS', lastRunCell(row, last)]),
  );
  if (last !== undefined) console.log(`\nlast run: ${last.at}${last.commit === null ? '' : ` at ${last.commit}`} (a change within ±10–30 % is often the VM's: rerun before blaming a change)`);
  if (historyFile !== null) {
    const commit = currentCommit();
    writeLastRun(historyFile, { at: new Date().toISOString(), commit, figures: rows.map(({ measure, value, shown }) => ({ measure, value, shown })) });
  }
  console.log('\nsizes in quick:');
  for (const row of rows) console.log(`  ${row.measure}: ${row.how}`);
  const hits = rows.filter(met).length;
  console.log(`\nquick: ${hits} MET, ${rows.length - hits} MISS (not a test: timings) in ${((performance.now() - started) / 1000).toFixed(0)} s (${spent.join(', ')})`);
}
