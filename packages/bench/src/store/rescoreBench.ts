/**
 * `rescore`: what a change of rules costs at `tenure serve`'s start. The synthetic base (20 k
 * subscribers by default, BENCH_RESCORE_SUBSCRIBERS) is loaded into SQLite (and PostgreSQL when a
 * database is configured); then `store.ensureConfig` under other rules (re-materializing every row
 * from the stored subscribers, what the service does) is measured beside `store.replay` under the
 * same rules (refolding every subscriber from its events, the alternative), in the same run.
 * Reported: wall time and this process's CPU time (PostgreSQL's own work is in its server).
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_CONFIG, resolveConfig } from '@tenure/core';
import { benchDatabaseUrl, noticeNoPostgres, openBenchStore, removeBenchDir, type StoreKind } from './benchStores.js';
import { printTable } from './latency.js';
import { loadStore } from './loadStore.js';

const SUBSCRIBERS = Number(process.env['BENCH_RESCORE_SUBSCRIBERS'] ?? 20_000);
const NOW = 1_762_000_000_000 + 400 * 86_400_000;
/** Two other rule sets: a round under each, so the second round runs warm (the first pays for the JIT and caches). */
const ROUNDS = [
  resolveConfig({ bands: { critical: 90, high: 45, medium: 20 }, risk: { state_base: { active: 20 }, inactivity_days_per_point: 1 } }),
  resolveConfig({ bands: { critical: 85, high: 55, medium: 30 }, risk: { state_base: { active: 15 } } }),
];

interface Timing {
  wallMs: number;
  cpuMs: number;
  rows: number;
}

async function timed(run: () => Promise<number>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const rows = await run();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000, rows };
}

/** Runs the bench and prints one line per store. */
export async function runRescoreBench(): Promise<void> {
  const url = benchDatabaseUrl();
  if (url === undefined) noticeNoPostgres('rescore');
  const kinds: StoreKind[] = url === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
  const rows: string[][] = [];
  for (const kind of kinds) {
    const bench = await openBenchStore(kind, url === undefined ? {} : { postgresUrl: url });
    try {
      await loadStore(bench.store, SUBSCRIBERS, NOW, DEFAULT_CONFIG);
      for (const [round, config] of ROUNDS.entries()) {
        const rescore = await timed(async () => {
          const check = await bench.store.ensureConfig({ now: NOW, config });
          if (!check.changed) throw new Error('rescore: the rules did not count as changed');
          return check.rescored;
        });
        const same = await timed(async () => ((await bench.store.ensureConfig({ now: NOW, config })).changed ? -1 : 0));
        const replay = await timed(() => bench.store.replay({ now: NOW, config }));
        const f = (t: Timing) => `${t.wallMs.toFixed(0)} ms / ${t.cpuMs.toFixed(0)} ms`;
        rows.push([`${kind}, round ${round + 1}`, String(rescore.rows), f(rescore), f(same), f(replay), `${(replay.cpuMs / rescore.cpuMs).toFixed(1)} ×`]);
      }
    } finally {
      await bench.dispose();
    }
  }
  removeBenchDir();
  console.log(`\nrescore at start after a change of rules, ${SUBSCRIBERS} subscribers: ensureConfig (what tenure serve does) beside replay under the same rules; wall / this process's CPU`);
  printTable(['store', 'rows rescored', 'ensureConfig, rules changed', 'ensureConfig, same rules', 'replay (baseline)', 'replay CPU ÷ rescore CPU'], rows);
}
