/**
 * HTTP benchmark of the retention service's webhook route: `tenure serve` (auth + validation + reduce +
 * store) on the memory store, a SQLite file and PostgreSQL (one replica, then two replicas on one
 * schema with the load split across them), beside a bare node:http server and a bare Express 5 route,
 * all measured in the same run with autocannon over loopback. Targets run pinned to core 0 (the second
 * replica to core 1); the load generator runs on core 1 (the `bench` script pins it); PostgreSQL runs
 * unpinned. Bars: tenure serve (memory) ≥ 0.7 × bare node:http (issue #3); SQLite ≥ 0.5 × memory and
 * two PostgreSQL replicas ≥ 3 000 events/s together (issue #8).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineCpuPercent, machineJiffies } from './http/machineCpu.js';
import { runTarget, type RunningTarget } from './http/runTarget.js';
import { startServe } from './http/serveTarget.js';
import { bodySource, postWebhooks, type BodySource } from './http/webhookLoad.js';
import { benchDatabaseUrl, dropSchema, freshSchemaName, noticeNoPostgres } from './store/benchStores.js';
import { median, ms, printTable } from './store/latency.js';
import { syntheticWebhookStrings } from './syntheticEvents.js';

const CONNECTIONS = 50;

/** What `runServerBench` loads: by default every target, the durations and bodies from the environment. */
export interface ServerBenchOptions {
  /** Only these targets (the baseline, `bare`, first); every one by default. */
  keys?: readonly Target['key'][];
  warmupSeconds?: number;
  seconds?: number;
  /**
   * Rounds over the targets (`BENCH_SERVER_ROUNDS`, 1): each round starts every target afresh, the
   * order reversed every other round; with more than one, the bars read the median of the rounds'
   * ratios, as issue #21 reads its figures (this 2-core VM moves one round's ratio ±20–30 %).
   */
  rounds?: number;
  /** The bodies to post, distinct event ids (by default `BENCH_HTTP_BODIES` synthetic ones, 600 k). */
  bodies?: readonly string[];
  /**
   * Start every target once and keep them up through the rounds (`quick`): each is warmed once,
   * then measured once a round, so short rounds can alternate without paying a start and a warm-up
   * each. By default each round starts every target afresh (a fresh store per measurement).
   */
  keepUp?: boolean;
}

/** What the bench measured: every round's results (targets in their listed order) and the bars' ratios. */
export interface ServerBenchResult {
  rounds: HttpResult[][];
  /** The median over the rounds of `key`'s req/s ÷ `over`'s in the same round, or undefined when either was not run. */
  ratio(key: Target['key'], over: Target['key']): number | undefined;
}

export interface Target {
  name: string;
  key: 'bare' | 'express' | 'memory' | 'sqlite' | 'postgres' | 'postgres2';
  /** Starts the target's processes (one per replica). */
  start(): Promise<RunningTarget[]>;
  cleanup?(): Promise<void>;
}

export interface HttpResult {
  name: string;
  key: Target['key'];
  rps: number;
  p50: number;
  p99: number;
  cpuMicrosPerRequest: number;
  /** Busy share of the whole machine during the measurement, in % of one core (200 % = both cores). */
  machineCpu: number;
  failed: number;
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

function targets(postgresUrl: string | undefined): Target[] {
  const tsx = ['--import', 'tsx'];
  const pgTarget = (replicas: 1 | 2): Target => {
    const schema = freshSchemaName(replicas === 1 ? 'ingest' : 'ingest2');
    const store = `${postgresUrl!}${postgresUrl!.includes('?') ? '&' : '?'}schema=${schema}`;
    return {
      name: replicas === 1 ? 'tenure serve, postgres (1 replica)' : 'tenure serve, postgres (2 replicas, 1 schema)',
      key: replicas === 1 ? 'postgres' : 'postgres2',
      start: () => Promise.all(Array.from({ length: replicas }, (_, i) => startServe({ store, cores: i, clock: 'event' }))),
      cleanup: () => dropSchema(postgresUrl!, schema),
    };
  };
  return [
    { name: 'bare node:http (baseline)', key: 'bare', start: async () => [await runTarget([here('./http/targets/bareNodeHttp.mjs')], {}, 0)] },
    { name: 'bare Express 5 express.json()', key: 'express', start: async () => [await runTarget([...tsx, here('./http/targets/bareExpress.ts')], {}, 0)] },
    { name: 'tenure serve, memory', key: 'memory', start: async () => [await startServe({ store: 'memory', cores: 0, clock: 'event' })] },
    sqliteTarget(),
    ...(postgresUrl === undefined ? [] : [pgTarget(1), pgTarget(2)]),
  ];
}

/**
 * `tenure serve` on a SQLite file of its own, removed with its WAL and sandbox file when the target
 * stops: a round writes hundreds of MB, which piled up in the temp directory run after run.
 */
function sqliteTarget(): Target {
  let dir: string | undefined;
  return {
    name: 'tenure serve, sqlite (WAL file)',
    key: 'sqlite',
    start: async () => {
      dir = mkdtempSync(join(tmpdir(), 'tenure-bench-ingest-'));
      return [await startServe({ store: `sqlite:${join(dir, 'ingest.db')}`, cores: 0, clock: 'event' })];
    },
    cleanup: async () => {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    },
  };
}

/** A target's processes, up and warmed, with the cursor into the bodies it has been sent so far. */
interface WarmTarget {
  target: Target;
  running: RunningTarget[];
  source: BodySource;
}

/** Starts a target and loads it for `warmupSeconds` (not measured). */
async function warmTarget(target: Target, bodies: readonly string[], warmupSeconds: number): Promise<WarmTarget> {
  const running = await target.start();
  const warm = { target, running, source: bodySource(bodies) };
  try {
    await postWebhooks(running.map((r) => r.url), warm.source, { seconds: warmupSeconds, connections: CONNECTIONS });
  } catch (error) {
    await stopTarget(warm);
    throw error;
  }
  return warm;
}

/** Loads a warm target for `seconds` and reads its rate, latency and CPU; its bodies continue where the last load left them. */
async function measureWarm({ target, running, source }: WarmTarget, seconds: number): Promise<HttpResult> {
  const urls = running.map((r) => r.url);
  const cpuBefore = running.reduce((n, r) => n + r.cpuMicros(), 0);
  const machineBefore = machineJiffies();
  const result = await postWebhooks(urls, source, { seconds, connections: CONNECTIONS });
  const machineAfter = machineJiffies();
  const cpu = running.reduce((n, r) => n + r.cpuMicros(), 0) - cpuBefore;
  return {
    name: target.name,
    key: target.key,
    rps: result.rps,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicrosPerRequest: result.completed > 0 ? cpu / result.completed : NaN,
    machineCpu: machineCpuPercent(machineBefore, machineAfter),
    failed: result.non2xx + result.errors,
  };
}

async function stopTarget({ target, running }: WarmTarget): Promise<void> {
  await Promise.all(running.map((r) => r.stop()));
  await target.cleanup?.();
}

/** Starts a target afresh, warms it, measures it once and stops it. */
async function measureTarget(target: Target, bodies: readonly string[], warmupSeconds: number, seconds: number): Promise<HttpResult> {
  const warm = await warmTarget(target, bodies, warmupSeconds);
  try {
    return await measureWarm(warm, seconds);
  } finally {
    await stopTarget(warm);
  }
}

/**
 * `roundCount` rounds measuring every target in turn with `measure`, the order reversed every other
 * round; each round's results in the targets' listed order (the baseline first, whatever order they
 * ran in), handed to `onRound` as the round ends.
 */
async function measureRounds(
  chosen: readonly Target[],
  roundCount: number,
  measure: (target: Target) => Promise<HttpResult>,
  onRound: (round: HttpResult[], r: number) => void,
): Promise<HttpResult[][]> {
  const rounds: HttpResult[][] = [];
  for (let r = 0; r < roundCount; r += 1) {
    const order = r % 2 === 0 ? chosen : [...chosen].reverse();
    const measured = new Map<Target['key'], HttpResult>();
    for (const target of order) measured.set(target.key, await measure(target));
    rounds.push(chosen.map((target) => measured.get(target.key)!));
    onRound(rounds[r]!, r);
  }
  return rounds;
}

/**
 * Every target started and warmed once (what `keepUp` asks for), `run` given each one's warm
 * processes, and every target stopped after it, or as soon as one fails to start. Each target keeps
 * its own stream of bodies across rounds, so no event id is sent to it twice while the bodies last.
 */
async function withTargetsUp<T>(chosen: readonly Target[], bodies: readonly string[], warmupSeconds: number, run: (warmOf: (target: Target) => WarmTarget) => Promise<T>): Promise<T> {
  const warm = new Map<Target['key'], WarmTarget>();
  try {
    for (const target of chosen) warm.set(target.key, await warmTarget(target, bodies, warmupSeconds));
    return await run((target) => warm.get(target.key)!);
  } finally {
    await Promise.all([...warm.values()].map(stopTarget));
  }
}

/** Runs the webhook ingest bench on every target and prints the table and the bars. */
export async function runServerBench(options: ServerBenchOptions = {}): Promise<ServerBenchResult> {
  const warmupSeconds = options.warmupSeconds ?? Number(process.env['BENCH_WARMUP_SECONDS'] ?? 3);
  const seconds = options.seconds ?? Number(process.env['BENCH_SECONDS'] ?? 10);
  // Distinct event ids, so the service does real work (a repeated id would be a cheap duplicate).
  const bodies = options.bodies ?? syntheticWebhookStrings(Number(process.env['BENCH_HTTP_BODIES'] ?? 600_000));
  const keys = options.keys;
  const wantsPostgres = keys === undefined || keys.some((k) => k.startsWith('postgres'));
  const postgresUrl = wantsPostgres ? benchDatabaseUrl() : undefined;
  const roundCount = Math.max(1, Math.floor(options.rounds ?? Number(process.env['BENCH_SERVER_ROUNDS'] ?? 1)));
  const keepUp = options.keepUp === true;
  console.log(
    `\nserver (webhook ingest): ${CONNECTIONS} connections, ${warmupSeconds}s warm-up then ${seconds}s per target, ~1 KB real-format bodies, ` +
      (keepUp ? 'every target started and warmed once and kept up through the rounds' : 'a fresh store per target') +
      (roundCount > 1 ? `; ${roundCount} rounds, the order reversed every other round, bars on the medians of the rounds' ratios` : ''),
  );
  if (postgresUrl === undefined && wantsPostgres) noticeNoPostgres('server');
  const chosen = targets(postgresUrl).filter((target) => keys === undefined || keys.includes(target.key));
  const printed = (round: HttpResult[], r: number) => {
    if (roundCount > 1) console.log(`round ${r + 1} of ${roundCount}${r % 2 === 0 ? '' : ' (order reversed)'}`);
    printRound(round);
  };
  const rounds = keepUp
    ? await withTargetsUp(chosen, bodies, warmupSeconds, (warmOf) => measureRounds(chosen, roundCount, (target) => measureWarm(warmOf(target), seconds), printed))
    : await measureRounds(chosen, roundCount, (target) => measureTarget(target, bodies, warmupSeconds, seconds), printed);
  // Each bar reads one ratio per round (both sides measured in that round), then their median.
  const ratioOf = (key: Target['key'], over: Target['key']) => {
    const ratios = rounds.flatMap((round) => {
      const a = round.find((r) => r.key === key);
      const b = round.find((r) => r.key === over);
      return a === undefined || b === undefined ? [] : [a.rps / b.rps];
    });
    return ratios.length === 0 ? undefined : { median: median(ratios), ratios };
  };
  const shown = (m: { median: number; ratios: number[] }) => (m.ratios.length === 1 ? m.median.toFixed(2) : `${m.median.toFixed(2)} (median of ${m.ratios.map((x) => x.toFixed(2)).join(', ')})`);
  const bar = (ok: boolean, text: string) => console.log(`bar: ${ok ? 'MET ' : 'MISS'} ${text}`);
  console.log('');
  const memory = ratioOf('memory', 'bare');
  const sqliteBare = ratioOf('sqlite', 'bare');
  const sqliteMemory = ratioOf('sqlite', 'memory');
  if (memory !== undefined) bar(memory.median >= 0.7, `tenure serve (memory) / bare node:http = ${shown(memory)} (bar 0.70)`);
  if (sqliteBare !== undefined) bar(sqliteBare.median >= 0.5, `sqlite / bare node:http = ${shown(sqliteBare)} (bar 0.50, issue #21)`);
  if (sqliteMemory !== undefined) bar(sqliteMemory.median >= 0.5, `sqlite / memory = ${shown(sqliteMemory)} (bar 0.50)`);
  const pg2 = rounds.flatMap((round) => round.filter((r) => r.key === 'postgres2').map((r) => r.rps));
  if (pg2.length > 0) {
    const rps = median(pg2);
    const overBare = ratioOf('postgres2', 'bare');
    bar(rps >= 3000, `two postgres replicas = ${rps.toFixed(0)} events/s (bar 3 000${overBare === undefined ? '' : `; ${shown(overBare)} × node:http`})`);
  }
  return { rounds, ratio: (key, over) => ratioOf(key, over)?.median };
}

/** Prints one round's table, each target's req/s beside the baseline's (the first row). */
function printRound(results: readonly HttpResult[]): void {
  const base = results[0]!;
  printTable(
    ['target', 'req/s', 'p50', 'p99', 'CPU µs/req', 'machine CPU', '× node:http', 'failed'],
    results.map((r) => [
      r.name,
      r.rps.toFixed(0),
      ms(r.p50),
      ms(r.p99),
      r.cpuMicrosPerRequest.toFixed(0),
      `${r.machineCpu.toFixed(0)} %`,
      r === base ? 'baseline' : (r.rps / base.rps).toFixed(2),
      String(r.failed),
    ]),
  );
}
