/**
 * Webhook latency while at-risk pages are read: `tenure serve` takes webhook load alone, then the same
 * load while a second client reads `GET /api/at-risk` pages back to back, then alone again (this VM
 * drifts, so the "alone" figure brackets the other). Run on SQLite holding the synthetic subscriber
 * base (~1 M) and on the memory store (preloaded over HTTP with part of the same base). Bar (issue
 * #8): webhook p99 with readers ≤ 2 × without.
 */
import { startAtRiskReader, readAtRiskOnce, type ReaderResult } from '../http/atRiskReader.js';
import { startServe } from '../http/serveTarget.js';
import { bodySource, postWebhooks, type LoadResult } from '../http/webhookLoad.js';
import { syntheticWebhookStrings } from '../syntheticEvents.js';
import { ms, printTable } from './latency.js';
import { syntheticEventBatches } from './syntheticSubscribers.js';

const CONNECTIONS = 50;
const WARMUP_SECONDS = Number(process.env['BENCH_WARMUP_SECONDS'] ?? 3);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);

export interface ParallelResult {
  store: string;
  subscribers: string;
  alone: LoadResult[];
  withReader: LoadResult;
  reader: ReaderResult;
}

/** The synthetic base's first `customers` as webhook bodies, to preload a memory-store service over HTTP. */
function preloadBodies(customers: number, now: number): string[] {
  const out: string[] = [];
  for (const batch of syntheticEventBatches(0, customers, now)) for (const event of batch) out.push(JSON.stringify({ api_version: '1.0', event }));
  return out;
}

async function measure(store: string, subscribers: string, preload: string[] | null, bodies: readonly string[]): Promise<ParallelResult> {
  const serve = await startServe({ store, cores: 0, clock: 'wall' });
  try {
    const url = serve.url;
    if (preload !== null) {
      const loaded = await postWebhooks([url], bodySource(preload), { amount: preload.length, connections: CONNECTIONS });
      if (loaded.non2xx + loaded.errors > 0) throw new Error(`preload: ${loaded.non2xx + loaded.errors} webhooks failed`);
    }
    const source = bodySource(bodies);
    for (let i = 0; i < 8; i++) await readAtRiskOnce(url);
    await postWebhooks([url], source, { seconds: WARMUP_SECONDS, connections: CONNECTIONS });
    const alone1 = await postWebhooks([url], source, { seconds: SECONDS, connections: CONNECTIONS });
    const reader = startAtRiskReader(url);
    const withReader = await postWebhooks([url], source, { seconds: SECONDS, connections: CONNECTIONS });
    const read = await reader.stop();
    const alone2 = await postWebhooks([url], source, { seconds: SECONDS, connections: CONNECTIONS });
    return { store, subscribers, alone: [alone1, alone2], withReader, reader: read };
  } finally {
    await serve.stop();
  }
}

/**
 * Given the SQLite file holding the synthetic base, its size and its instant, measures both stores
 * and prints the table and the bar.
 */
export async function runParallelBench(sqlitePath: string, sqliteSubscribers: number, now: number): Promise<ParallelResult[]> {
  const preloadCustomers = Number(process.env['BENCH_MEMORY_PRELOAD'] ?? 100_000);
  console.log(
    `\nparallel: webhook load (${CONNECTIONS} connections, ${SECONDS}s) alone, with one client reading GET /api/at-risk pages back to back, alone again; tenure serve on core 0, wall clock`,
  );
  const bodies = syntheticWebhookStrings(Number(process.env['BENCH_HTTP_BODIES'] ?? 600_000));
  const results = [
    await measure(`sqlite:${sqlitePath}`, `${+(sqliteSubscribers / 1e6).toFixed(2)} M`, null, bodies),
    await measure('memory', `${(preloadCustomers / 1e3).toFixed(0)} k (preloaded over HTTP)`, preloadBodies(preloadCustomers, now), bodies),
  ];
  const rows: string[][] = [];
  for (const r of results) {
    const base = (r.alone[0]!.latency.p99 + r.alone[1]!.latency.p99) / 2;
    const row = (name: string, l: LoadResult, ratio: string, reads: string) => [
      `${r.store.startsWith('sqlite') ? 'sqlite' : 'memory'} ${r.subscribers}: ${name}`,
      l.rps.toFixed(0),
      ms(l.latency.p50),
      ms(l.latency.p99),
      ratio,
      reads,
      String(l.non2xx + l.errors),
    ];
    rows.push(row('webhooks alone', r.alone[0]!, 'baseline', ''));
    rows.push(
      row(
        'webhooks + at-risk reader',
        r.withReader,
        (r.withReader.latency.p99 / base).toFixed(2),
        `${(r.reader.pages / SECONDS).toFixed(0)} pages/s, p50 ${ms(r.reader.latency.p50)}, p99 ${ms(r.reader.latency.p99)}${r.reader.failed > 0 ? `, ${r.reader.failed} failed` : ''}`,
      ),
    );
    rows.push(row('webhooks alone again', r.alone[1]!, (r.alone[1]!.latency.p99 / r.alone[0]!.latency.p99).toFixed(2), ''));
  }
  printTable(['store: load', 'req/s', 'p50', 'p99', 'p99 × alone', 'at-risk reads', 'failed'], rows);
  console.log('');
  for (const r of results) {
    const base = (r.alone[0]!.latency.p99 + r.alone[1]!.latency.p99) / 2;
    const ratio = r.withReader.latency.p99 / base;
    console.log(`bar: ${ratio <= 2 ? 'MET ' : 'MISS'} ${r.store.startsWith('sqlite') ? 'sqlite' : 'memory'}: webhook p99 with readers / alone (mean of both) = ${ratio.toFixed(2)} (bar ≤ 2)`);
  }
  return results;
}
