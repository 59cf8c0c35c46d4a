/**
 * The at-risk measurements: the old way (a full scan of every subscriber with the core's
 * `selectAtRisk`, what the server ran per request before issue #8) and `store.atRisk` answering from
 * the materialized index, with the clock moving between queries so rows keep coming due. Also checks
 * the store's answers against the full scan, so a fast wrong answer cannot pass for a result.
 */
import { performance } from 'node:perf_hooks';
import { selectAtRisk, type AtRiskPosition, type Subscriber, type SubscriberStore, type TenureConfig } from '@tenure/core';
import { AT_RISK_QUERY_KINDS, type AtRiskQueryKind } from './atRiskQueries.js';
import { summarize, type LatencySummary } from './latency.js';

export interface ScanResult {
  subscribers: number;
  kind: string;
  /** Median of `runs` full scans, ms. */
  median: number;
  runs: number;
}

/**
 * Given subscribers, the instant and the configuration, times `selectAtRisk` (assess everyone,
 * filter, sort, page) for each query kind; `runs` scans per kind of the issue, fewer for the others.
 */
export function measureFullScan(subscribers: readonly Subscriber[], now: number, config: TenureConfig, runs: number): ScanResult[] {
  const out: ScanResult[] = [];
  const firstPage = selectAtRisk(subscribers, now, config, AT_RISK_QUERY_KINDS[0]!.query(null));
  for (const kind of AT_RISK_QUERY_KINDS) {
    const query = kind.query(firstPage.next);
    const n = kind.inIssue ? runs : Math.max(1, Math.ceil(runs / 3));
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      selectAtRisk(subscribers, now, config, query);
      times.push(performance.now() - start);
    }
    out.push({ subscribers: subscribers.length, kind: kind.name, median: summarize(times).p50, runs: n });
  }
  return out;
}

export interface StoreQueryResult {
  kind: string;
  latency: LatencySummary;
  /**
   * CPU time of this process per query (all its threads: V8's GC helpers, SQLite in-process), which
   * other processes on a shared machine do not inflate; PostgreSQL's own work is not in it.
   */
  cpu: LatencySummary;
  /** Queries during which the kernel switched this process out for another (their wall time includes the wait). */
  preempted: number;
  /** Items of the last answer (shows the query is not empty). */
  items: number;
}

/**
 * Given a loaded store, asks every query kind `perKind` times, round robin, advancing the clock by
 * `stepMs` before each query (rows come due as inactivity and trials move), and returns the latency
 * of each kind and the last instant asked at. A few unmeasured queries first warm caches and code.
 */
export async function measureStoreQueries(
  store: SubscriberStore,
  config: TenureConfig,
  startNow: number,
  stepMs: number,
  perKind: number,
): Promise<{ results: StoreQueryResult[]; endNow: number }> {
  const kinds = AT_RISK_QUERY_KINDS;
  let now = startNow;
  let after: AtRiskPosition | null = null;
  const ask = async (kind: AtRiskQueryKind) => {
    const page = await store.atRisk(kind.query(after), { now, config });
    if (kind === kinds[0]) after = page.next;
    return page;
  };
  for (let i = 0; i < 4 * kinds.length; i++) await ask(kinds[i % kinds.length]!);

  const samples = kinds.map(() => [] as number[]);
  const cpu = kinds.map(() => [] as number[]);
  const preempted = kinds.map(() => 0);
  const items = kinds.map(() => 0);
  for (let i = 0; i < perKind * kinds.length; i++) {
    const k = i % kinds.length;
    now += stepMs;
    // Between two requests a server's event loop runs what the last one scheduled (the SQLite store
    // writes re-assessed rows back in a setImmediate); a loop of awaits alone would never let it.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const cpuBefore = process.cpuUsage();
    const switchesBefore = process.resourceUsage().involuntaryContextSwitches;
    const start = performance.now();
    const page = await ask(kinds[k]!);
    samples[k]!.push(performance.now() - start);
    const used = process.cpuUsage(cpuBefore);
    cpu[k]!.push((used.user + used.system) / 1000);
    if (process.resourceUsage().involuntaryContextSwitches > switchesBefore) preempted[k]!++;
    items[k] = page.items.length;
  }
  return {
    results: kinds.map((kind, k) => ({ kind: kind.name, latency: summarize(samples[k]!), cpu: summarize(cpu[k]!), preempted: preempted[k]!, items: items[k]! })),
    endNow: now,
  };
}

/**
 * Given a store and the subscribers it should hold, asks every query kind at `now` of both the store
 * and the full scan, and returns the differences (empty when every answer matches: the same customers
 * in the same order, scores, bands, top actions and `next`).
 */
export async function compareWithFullScan(
  store: SubscriberStore,
  subscribers: readonly Subscriber[],
  now: number,
  config: TenureConfig,
): Promise<string[]> {
  const problems: string[] = [];
  const firstPage = selectAtRisk(subscribers, now, config, AT_RISK_QUERY_KINDS[0]!.query(null));
  for (const kind of AT_RISK_QUERY_KINDS) {
    const query = kind.query(firstPage.next);
    const expected = selectAtRisk(subscribers, now, config, query);
    const actual = await store.atRisk(query, { now, config });
    const want = expected.items.map((a) => `${a.subscriber.customer_id}:${a.risk.score}:${a.risk.band}:${a.recommendations[0]?.action ?? '-'}`);
    const got = actual.items.map((e) => `${e.customer_id}:${e.score}:${e.band}:${e.top?.action ?? '-'}`);
    const firstDiff = want.findIndex((w, i) => got[i] !== w);
    if (want.length !== got.length || firstDiff >= 0) {
      const i = firstDiff >= 0 ? firstDiff : Math.min(want.length, got.length);
      problems.push(`${kind.name}: item ${i} is ${got[i] ?? 'missing'}, the full scan says ${want[i] ?? 'none'} (${got.length} vs ${want.length} items)`);
    }
    if (JSON.stringify(actual.next) !== JSON.stringify(expected.next)) {
      problems.push(`${kind.name}: next ${JSON.stringify(actual.next)}, the full scan says ${JSON.stringify(expected.next)}`);
    }
  }
  return problems;
}
