/**
 * Resident memory of `tenure serve` on SQLite holding the synthetic subscriber base (~1 M): VmRSS
 * after start, after the first at-risk query, then during and after two bursts of webhooks with an
 * at-risk reader in parallel (flat means the second burst does not grow it). Baseline: the bare
 * node:http server under the same webhook burst. Bar (issue #8): ≤ 250 MB, flat.
 */
import { fileURLToPath } from 'node:url';
import { readAtRiskOnce, startAtRiskReader } from '../http/atRiskReader.js';
import { runTarget, type RunningTarget } from '../http/runTarget.js';
import { startServe } from '../http/serveTarget.js';
import { bodySource, postWebhooks, type BodySource } from '../http/webhookLoad.js';
import { syntheticWebhookStrings } from '../syntheticEvents.js';
import { printTable } from './latency.js';

const CONNECTIONS = 50;
const BURST_SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const MB = 1024 * 1024;
const BAR_MB = 250;

export interface RssResult {
  name: string;
  idle: number;
  afterFirstQuery: number | null;
  burstMax: number[];
  afterBurst: number[];
  events: number;
  pages: number;
}

const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

/** Runs `during` while sampling the target's RSS every 200 ms; resolves with the largest sample. */
async function sampleDuring(target: RunningTarget, during: Promise<unknown>): Promise<number> {
  let max = target.rssBytes();
  let done = false;
  void during.finally(() => (done = true));
  while (!done) {
    max = Math.max(max, target.rssBytes());
    await sleep(200);
  }
  await during;
  return Math.max(max, target.rssBytes());
}

async function bursts(target: RunningTarget, source: BodySource, withReader: boolean, name: string): Promise<RssResult> {
  await sleep(2000);
  const idle = target.rssBytes();
  let afterFirstQuery: number | null = null;
  if (withReader) {
    await readAtRiskOnce(target.url);
    afterFirstQuery = target.rssBytes();
  }
  const burstMax: number[] = [];
  const afterBurst: number[] = [];
  let events = 0;
  let pages = 0;
  for (let b = 0; b < 2; b++) {
    const reader = withReader ? startAtRiskReader(target.url) : null;
    const load = postWebhooks([target.url], source, { seconds: BURST_SECONDS, connections: CONNECTIONS });
    burstMax.push(await sampleDuring(target, load));
    events += (await load).completed;
    pages += (await reader?.stop())?.pages ?? 0;
    await sleep(2000);
    afterBurst.push(target.rssBytes());
  }
  return { name, idle, afterFirstQuery, burstMax, afterBurst, events, pages };
}

/** Given the SQLite file holding the synthetic base and its size, measures and prints the RSS table and the bar. */
export async function runRssBench(sqlitePath: string, subscribers: number): Promise<RssResult[]> {
  console.log(`\nrss: VmRSS of the target process; two bursts of ${BURST_SECONDS}s webhook load (${CONNECTIONS} connections), with an at-risk reader on tenure serve`);
  const bodies = syntheticWebhookStrings(Number(process.env['BENCH_HTTP_BODIES'] ?? 600_000));
  const results: RssResult[] = [];
  const bare = await runTarget([fileURLToPath(new URL('../http/targets/bareNodeHttp.mjs', import.meta.url))], {}, 0);
  try {
    results.push(await bursts(bare, bodySource(bodies), false, 'bare node:http (baseline)'));
  } finally {
    await bare.stop();
  }
  const serve = await startServe({ store: `sqlite:${sqlitePath}`, cores: 0, clock: 'wall' });
  try {
    results.push(await bursts(serve, bodySource(bodies), true, `tenure serve, sqlite, ${+(subscribers / 1e6).toFixed(2)} M subscribers`));
  } finally {
    await serve.stop();
  }
  const mb = (bytes: number | null) => (bytes === null ? '—' : (bytes / MB).toFixed(0));
  printTable(
    ['process', 'idle MB', 'after 1st at-risk', 'burst 1 max', 'after burst 1', 'burst 2 max', 'after burst 2', 'webhooks', 'at-risk pages'],
    results.map((r) => [r.name, mb(r.idle), mb(r.afterFirstQuery), mb(r.burstMax[0]!), mb(r.afterBurst[0]!), mb(r.burstMax[1]!), mb(r.afterBurst[1]!), String(r.events), String(r.pages)]),
  );
  const tenure = results[1]!;
  const max = Math.max(...tenure.burstMax, ...tenure.afterBurst);
  const growth = (tenure.afterBurst[1]! - tenure.afterBurst[0]!) / MB;
  console.log(`\nbar: ${max <= BAR_MB * MB ? 'MET ' : 'MISS'} tenure serve on sqlite: max RSS ${(max / MB).toFixed(0)} MB (bar ≤ ${BAR_MB} MB; ${(max / results[0]!.burstMax[1]!).toFixed(1)} × bare node:http); second burst grew it by ${growth.toFixed(0)} MB`);
  return results;
}
