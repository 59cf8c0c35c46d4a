/**
 * One store's part of the storage benches, run in a process of its own (`storeWorker.ts`): load the
 * synthetic base with `applyEvents`, time the at-risk queries, check the answers against the full
 * scan, replay. A process per store keeps one store's heap (the memory store holds gigabytes at a
 * million subscribers) and its garbage out of another store's latencies.
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_CONFIG } from '@tenure/core';
import { compareWithFullScan, measureStoreQueries, type StoreQueryResult } from './atRiskBench.js';
import { analyzeSchema, openBenchStore, type StoreKind } from './benchStores.js';
import { collectGarbage } from './latency.js';
import { loadStore, type LoadResult } from './loadStore.js';
import { syntheticSubscribers } from './syntheticSubscribers.js';

export interface StoreRunOptions {
  kind: StoreKind;
  subscribers: number;
  /** The instant the base is loaded at; queries move on from it. */
  now: number;
  atRisk: boolean;
  replay: boolean;
  queriesPerKind: number;
  stepMs: number;
  verify: boolean;
  sqlitePath: string;
  postgresUrl: string | undefined;
}

export interface StoreRun {
  kind: StoreKind;
  load: LoadResult;
  /** Memory store: heap growth per subscriber after the load (events included). */
  heapBytesPerSubscriber?: number;
  queries?: StoreQueryResult[];
  /** Differences from the full scan at the last instant (empty: equal). */
  problems?: string[];
  replay?: { seconds: number; events: number; subscribers: number };
}

const sec = (s: number) => `${s.toFixed(1)} s`;

/** Given the options, runs one store's part and resolves with its figures (progress on stdout). */
export async function runStore(o: StoreRunOptions): Promise<StoreRun> {
  const config = DEFAULT_CONFIG;
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const opened = await openBenchStore(o.kind, { sqlitePath: o.sqlitePath, ...(o.postgresUrl === undefined ? {} : { postgresUrl: o.postgresUrl }) });
  try {
    const started = performance.now();
    const load = await loadStore(opened.store, o.subscribers, o.now, config, 10_000, (events) =>
      console.log(`  ${o.kind}: ${events.toLocaleString('en')} events loaded (${sec((performance.now() - started) / 1000)})`),
    );
    console.log(`  ${o.kind}: loaded ${load.events.toLocaleString('en')} events, ${load.subscribers.toLocaleString('en')} subscribers in ${sec(load.seconds)}`);
    if (opened.schema !== undefined && o.postgresUrl !== undefined) {
      const start = performance.now();
      const { autovacuum } = await analyzeSchema(o.postgresUrl, opened.schema);
      console.log(`  ${o.kind}: VACUUM ANALYZE after the load, as autovacuum would (autovacuum is ${autovacuum} on this server): ${sec((performance.now() - start) / 1000)}`);
    }
    const run: StoreRun = { kind: o.kind, load };
    let lastNow = o.now;
    if (o.kind === 'memory') {
      collectGarbage();
      run.heapBytesPerSubscriber = (process.memoryUsage().heapUsed - heapBefore) / load.subscribers;
    }
    if (o.atRisk) {
      collectGarbage();
      const { results, endNow } = await measureStoreQueries(opened.store, config, o.now, o.stepMs, o.queriesPerKind);
      run.queries = results;
      lastNow = endNow;
      if (o.verify) {
        // The reference is built after the measurement, not held during it: a million subscribers
        // more in this heap would make V8 mark in steps that are then counted against the store.
        run.problems = await compareWithFullScan(opened.store, syntheticSubscribers(o.subscribers, o.now), endNow, config);
        collectGarbage();
        console.log(`  ${o.kind}: answers at the last instant ${run.problems.length === 0 ? 'equal the full scan' : `DIFFER from the full scan:\n    ${run.problems.join('\n    ')}`}`);
      }
    }
    if (o.replay) {
      collectGarbage();
      const start = performance.now();
      const subscribers = await opened.store.replay({ now: lastNow, config });
      const seconds = (performance.now() - start) / 1000;
      run.replay = { seconds, events: await opened.store.eventCount(), subscribers };
      console.log(`  ${o.kind}: replayed ${subscribers.toLocaleString('en')} subscribers in ${sec(seconds)}`);
    }
    return run;
  } finally {
    await opened.dispose();
  }
}
