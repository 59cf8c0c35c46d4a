/**
 * `npm run bench -- backtest`: the core's `backtest` of a generated population (issue #12), 1 M
 * customers over 6 months by default (`BENCH_BACKTEST_CUSTOMERS`, `BENCH_BACKTEST_MONTHS`; one
 * activity report in `BENCH_BACKTEST_ACTIVITY_EVERY` kept, default all), 12 weekly cutoffs ending
 * one 30-day horizon before the last record. Beside it, in the same run, the baseline: the plain
 * fold of the same records (`foldEventsByCustomer`, then each activity report recorded once), the
 * work every record needs once, with no ordering and no assessment; and, as a floor, the fold of
 * the events alone. CPU time of the process, wall time, RSS before and at its peak (sampled by a
 * worker thread), peak heap (sampled at each step of the walk).
 * `BENCH_BACKTEST_CUSTOMERS=2000` is a smoke run.
 */
import { backtest, DAY_MS, foldEventsByCustomer, recordActivity, type HandledEvent, type StoredRecord } from '@tenure/core';
import { mb, startRssSampler, timed, type Timed } from '../processUsage.js';
import { collectGarbage, printTable, rate } from '../store/latency.js';
import { populationHistory } from './populationHistory.js';

const CUSTOMERS = Number(process.env['BENCH_BACKTEST_CUSTOMERS'] ?? 1_000_000);
const MONTHS = Number(process.env['BENCH_BACKTEST_MONTHS'] ?? 6);
const ACTIVITY_EVERY = Number(process.env['BENCH_BACKTEST_ACTIVITY_EVERY'] ?? 1);
const CUTOFFS = 12;
const STEP_MS = 7 * DAY_MS;
const HORIZON_MS = 30 * DAY_MS;
const SEED = 'bench';

/** The baseline: every event folded once per customer (deduplicated as the stores do), then every activity report recorded once (unless `eventsOnly`). */
export function foldHistory(records: readonly StoredRecord[], sampleHeap: () => void, eventsOnly = false): number {
  const events: HandledEvent[] = [];
  for (const r of records) if (r.kind === 'event') events.push(r.event);
  const subscribers = foldEventsByCustomer(events);
  sampleHeap();
  if (eventsOnly) return subscribers.size;
  for (const r of records) {
    if (r.kind !== 'activity') continue;
    const subscriber = subscribers.get(r.customer_id);
    if (subscriber !== undefined) subscribers.set(r.customer_id, recordActivity(subscriber, r.at));
  }
  sampleHeap();
  return subscribers.size;
}

/** The last `CUTOFFS` weekly cutoffs at midnight UTC whose horizon ends by the last record. */
function weeklyCutoffs(records: readonly StoredRecord[]): number[] {
  let last = -Infinity;
  for (const r of records) last = Math.max(last, r.kind === 'event' ? r.event.event_timestamp_ms : r.at);
  const to = Math.floor((last - HORIZON_MS) / DAY_MS) * DAY_MS;
  return Array.from({ length: CUTOFFS }, (_, i) => to - (CUTOFFS - 1 - i) * STEP_MS);
}

/** The bench's backtest of `records`: its weekly cutoffs and 30-day horizon, `sampleHeap` at each step; throws if refused. */
export function backtestHistory(records: readonly StoredRecord[], sampleHeap: () => void) {
  const report = backtest(records, { cutoffs: weeklyCutoffs(records), horizon_ms: HORIZON_MS, onProgress: sampleHeap });
  if (!report.ok) throw new Error(`backtest refused: ${JSON.stringify(report.errors)}`);
  return report.value;
}

/** A measured phase: CPU and wall time, RSS before it (after a collection) and at its peak, peak heap. */
export interface Phase extends Timed {
  rssBefore: number;
  rss: number;
  heap: number;
}

/** Runs `run` (which calls `sampleHeap` at its steps) after a collection and measures it as a `Phase`. */
export async function phase(run: (sampleHeap: () => void) => void): Promise<Phase> {
  let heap = 0;
  const sampleHeap = () => (heap = Math.max(heap, process.memoryUsage().heapUsed));
  collectGarbage();
  const rssBefore = process.memoryUsage.rss();
  const sampler = await startRssSampler();
  const t = await timed(() => run(sampleHeap));
  return { ...t, rssBefore, rss: sampler.stop(), heap };
}

/** Runs the backtest bench and prints its table. */
export async function runBacktestBench(): Promise<void> {
  const started = process.cpuUsage();
  const history = populationHistory({ customers: CUSTOMERS, months: MONTHS, seed: SEED, activityEvery: ACTIVITY_EVERY });
  const built = process.cpuUsage(started);
  const { records, events, activity } = history;
  const cutoffs = weeklyCutoffs(records);
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  console.log(
    `\nbacktest: ${CUSTOMERS.toLocaleString('en-US')} customers over ${MONTHS} months (seed ${SEED}): ${events.toLocaleString('en-US')} events, ` +
      `${activity.toLocaleString('en-US')} activity reports${ACTIVITY_EVERY === 1 ? '' : ` (one in ${ACTIVITY_EVERY} of ${history.activityGenerated.toLocaleString('en-US')})`}, ` +
      `${history.churned.toLocaleString('en-US')} churned at the end; built in ${((built.user + built.system) / 1e6).toFixed(1)} s CPU`,
  );
  console.log(`backtest: ${CUTOFFS} weekly cutoffs ${day(cutoffs[0]!)} to ${day(cutoffs.at(-1)!)}, horizon 30 days; heap holding the history ${mb(process.memoryUsage().heapUsed)}`);

  const floor = await phase((sampleHeap) => foldHistory(records, sampleHeap, true));
  let folded = 0;
  const fold = await phase((sampleHeap) => (folded = foldHistory(records, sampleHeap)));
  let report: ReturnType<typeof backtestHistory> | undefined;
  const walk = await phase((sampleHeap) => (report = backtestHistory(records, sampleHeap)));
  if (report === undefined) throw new Error('backtest did not run');
  const { pooled, history: seen } = report;

  const row = (name: string, p: Phase, ratio: string, wallRatio: string) => [
    name,
    `${(p.cpuMs / 1000).toFixed(1)} s`,
    `${(p.wallMs / 1000).toFixed(1)} s`,
    rate((events * 1000) / p.cpuMs),
    ratio,
    wallRatio,
    mb(p.rssBefore),
    mb(p.rss),
    mb(p.heap),
  ];
  const ratios = (p: Phase): [string, string] => [(p.cpuMs / fold.cpuMs).toFixed(2), (p.wallMs / fold.wallMs).toFixed(2)];
  printTable(
    ['phase', 'CPU', 'wall', 'events/s (CPU)', '× fold (CPU)', '× fold (wall)', 'RSS before', 'peak RSS', 'peak heap'],
    [
      row('fold of the events alone (foldEventsByCustomer)', floor, ...ratios(floor)),
      row(`plain fold: ${folded.toLocaleString('en-US')} subscribers (baseline)`, fold, 'baseline', 'baseline'),
      row(`backtest: ${CUTOFFS} cutoffs, ${pooled.subscribers.toLocaleString('en-US')} assessments`, walk, ...ratios(walk)),
    ],
  );
  console.log(
    `backtest: ${seen.customers.toLocaleString('en-US')} customers, ${seen.events.toLocaleString('en-US')} events, ${seen.activity.toLocaleString('en-US')} activity reports; ` +
      `pooled ROC AUC ${pooled.roc_auc?.toFixed(3)}, PR AUC ${pooled.pr_auc?.toFixed(3)}, base rate ${((pooled.base_rate ?? 0) * 100).toFixed(1)} %; goal backtest ≤ 2 × fold (CPU)`,
  );
}
