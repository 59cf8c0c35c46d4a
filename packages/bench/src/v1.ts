/**
 * API v1 bench (issue #20): `GET /v1/subscribers/{app_user_id}` of the billing simulator served by
 * `startBillingSim` (node:http, development mode, the secret key a backend sends), over a world of
 * 10,000 customers with subscriptions and grants (`http/targets/simV1Target.ts`), the requests spread
 * over every id round robin; beside a bare node:http server answering one stored customer info body
 * (the simulator's own answer for a customer of median size), under the same load. Both targets run
 * pinned to core 0 and stay up for the whole run; the load generator runs on core 1 (the `bench`
 * script pins it). The two are loaded alternately over a few rounds (the order swapped each round)
 * and the medians are reported. Bar: simulator ≥ 0.3 × bare req/s ("a backend's integration suite
 * should never wait on it").
 */
import { fileURLToPath } from 'node:url';
import { loadUrls, type LoadResult } from './http/autocannonLoad.js';
import { machineCpuPercent, machineJiffies } from './http/machineCpu.js';
import { runTarget, type RunningTarget } from './http/runTarget.js';
import { median, ms, printTable } from './store/latency.js';

const CONNECTIONS = 50;

/** The v1 bench's sizes: by default from the environment (10,000 customers, 3 rounds of 5 s, 2 s warm-up). */
export interface V1BenchOptions {
  customers?: number;
  rounds?: number;
  seconds?: number;
  warmupSeconds?: number;
}
/** In development mode any key without a public prefix is the secret key: what a backend sends. */
const AUTHORIZATION = `Bearer ${process.env['BENCH_V1_KEY'] ?? 'sk_bench'}`;
const BAR = 0.3;

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

interface Measured {
  load: LoadResult;
  cpuMicrosPerRequest: number;
  machineCpu: number;
}

/** The subscriber paths, dealt round robin across connections (and across runs). */
function subscriberPaths(customers: number): () => string {
  const paths = Array.from({ length: customers }, (_, i) => `/v1/subscribers/user_${i}`);
  let next = 0;
  return () => paths[next++ % paths.length]!;
}

async function measure(target: RunningTarget, nextPath: () => string, seconds: number): Promise<Measured> {
  const cpuBefore = target.cpuMicros();
  const machineBefore = machineJiffies();
  const load = await loadUrls(
    [target.url],
    {
      method: 'GET',
      path: '/v1/subscribers/user_0',
      headers: { authorization: AUTHORIZATION },
      setup: (request) => {
        request.path = nextPath();
        return request;
      },
    },
    { seconds, connections: CONNECTIONS },
  );
  const cpu = target.cpuMicros() - cpuBefore;
  return { load, cpuMicrosPerRequest: load.completed > 0 ? cpu / load.completed : NaN, machineCpu: machineCpuPercent(machineBefore, machineJiffies()) };
}

/** Reads every customer's info once (each must be there: 200), and returns the body of median size. */
async function medianBody(url: string, customers: number): Promise<string> {
  const bodies: string[] = new Array(customers);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < customers; i = next++) {
      const res = await fetch(`${url}/v1/subscribers/user_${i}`, { headers: { authorization: AUTHORIZATION } });
      if (res.status !== 200) throw new Error(`user_${i}: ${res.status} ${await res.text()}`);
      bodies[i] = await res.text();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const bySize = [...bodies].sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b));
  return bySize[bySize.length >> 1]!;
}

/** Runs the API v1 bench, prints each round, the medians and the bar; returns the median ratio to the bare server. */
export async function runV1Bench(options: V1BenchOptions = {}): Promise<number> {
  const customers = options.customers ?? Number(process.env['BENCH_V1_CUSTOMERS'] ?? 10_000);
  const roundCount = options.rounds ?? Number(process.env['BENCH_V1_ROUNDS'] ?? 3);
  const seconds = options.seconds ?? Number(process.env['BENCH_V1_SECONDS'] ?? 5);
  const warmupSeconds = options.warmupSeconds ?? Number(process.env['BENCH_V1_WARMUP_SECONDS'] ?? 2);
  console.log(
    `\nv1 (GET /v1/subscribers/{id}): ${customers.toLocaleString('en')} customers, ${CONNECTIONS} connections, ids round robin; ` +
      `${warmupSeconds}s warm-up each, then ${roundCount} alternated rounds of ${seconds}s per target` +
      (process.env['BENCH_V1_FOLLOW_WALL_CLOCK'] === '1' ? '; the virtual clock following the wall clock' : ''),
  );
  const fromSource = process.env['BENCH_FROM_SOURCE'] === '1' ? ['--conditions=@tenure/source'] : [];
  const profile = process.env['BENCH_V1_PROFILE'] === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_V1_PROFILE']}`];
  const started = performance.now();
  const sim = await runTarget([...fromSource, ...profile, '--import', 'tsx', here('./http/targets/simV1Target.ts')], { BENCH_V1_CUSTOMERS: String(customers) }, 0);
  let bare: RunningTarget | undefined;
  try {
    console.log(`  simulator up with its world in ${((performance.now() - started) / 1000).toFixed(1)} s (process start included)`);
    const body = await medianBody(sim.url, customers);
    console.log(`  every customer answered 200; the bare server answers the median-sized body, ${Buffer.byteLength(body)} bytes`);
    bare = await runTarget([here('./http/targets/bareStoredJson.mjs')], { BENCH_BODY: body }, 0);
    const targets = { bare, sim };
    const nextPath = subscriberPaths(customers);
    for (const target of [bare, sim]) await measure(target, nextPath, warmupSeconds);
    const rounds: { bare: Measured; sim: Measured }[] = [];
    for (let r = 0; r < roundCount; r += 1) {
      const order = r % 2 === 0 ? (['bare', 'sim'] as const) : (['sim', 'bare'] as const);
      const round: Partial<Record<'bare' | 'sim', Measured>> = {};
      for (const key of order) round[key] = await measure(targets[key], nextPath, seconds);
      rounds.push(round as { bare: Measured; sim: Measured });
    }
    const row = (name: string, m: Measured, ratio: string) => [
      name,
      m.load.rps.toFixed(0),
      ms(m.load.latency.p50),
      ms(m.load.latency.p99),
      (m.load.bytes / Math.max(1, m.load.completed)).toFixed(0),
      m.cpuMicrosPerRequest.toFixed(0),
      `${m.machineCpu.toFixed(0)} %`,
      ratio,
      String(m.load.non2xx + m.load.errors),
    ];
    printTable(
      ['round, target', 'req/s', 'p50', 'p99', 'bytes/resp', 'CPU µs/req', 'machine CPU', '× bare', 'failed'],
      rounds.flatMap((round, r) => [
        row(`${r + 1}, bare node:http (baseline)`, round.bare, 'baseline'),
        row(`${r + 1}, simulator`, round.sim, (round.sim.load.rps / round.bare.load.rps).toFixed(2)),
      ]),
    );
    const medianOf = (key: 'bare' | 'sim', read: (m: Measured) => number) => median(rounds.map((round) => read(round[key])));
    const ratios = rounds.map((round) => round.sim.load.rps / round.bare.load.rps);
    console.log('');
    printTable(
      ['median of rounds', 'req/s', 'p99', 'CPU µs/req'],
      (['bare', 'sim'] as const).map((key) => [
        key === 'bare' ? 'bare node:http (baseline)' : 'simulator',
        medianOf(key, (m) => m.load.rps).toFixed(0),
        ms(medianOf(key, (m) => m.load.latency.p99)),
        medianOf(key, (m) => m.cpuMicrosPerRequest).toFixed(0),
      ]),
    );
    const ratio = median(ratios);
    console.log(`\nbar: ${ratio >= BAR ? 'MET ' : 'MISS'} simulator / bare node:http = ${ratio.toFixed(2)} (median of ${roundCount} rounds' ratios: ${ratios.map((x) => x.toFixed(2)).join(', ')}; bar ${BAR.toFixed(2)})`);
    return ratio;
  } finally {
    await Promise.all([sim.stop(), bare?.stop()]);
  }
}
