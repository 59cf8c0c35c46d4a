/**
 * HTTP benchmark of the retention service's webhook route: `tenure serve` (auth + validation + reduce +
 * memory store) beside a bare node:http server and a bare Express 5 route, all measured in the same
 * run with autocannon over loopback. Targets run pinned to core 0; the load generator runs on core 1
 * (the `bench` script pins it). Bar (issue #3): tenure serve ≥ 0.7 × bare node:http.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { runTarget } from './http/runTarget.js';
import { syntheticWebhookStrings } from './syntheticEvents.js';

const require = createRequire(import.meta.url);
const AUTH = 'Bearer bench-secret';
const CONNECTIONS = 50;
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

interface Target {
  name: string;
  args: string[];
  env: Record<string, string>;
}

interface HttpResult {
  name: string;
  rps: number;
  p99: number;
  cpuMicrosPerRequest: number;
  non2xx: number;
  errors: number;
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

function targets(): Target[] {
  const cli = require.resolve('@tenure/server/package.json').replace(/package\.json$/, 'dist/cli.js');
  const tsx = ['--import', 'tsx'];
  return [
    { name: 'bare node:http (baseline)', args: [...tsx, here('./http/targets/bareNodeHttp.ts')], env: {} },
    { name: 'bare Express 5 express.json()', args: [...tsx, here('./http/targets/bareExpress.ts')], env: {} },
    {
      name: 'tenure serve (auth + parse + reduce + memory store)',
      args: [cli, 'serve'],
      env: { BILLING_WEBHOOK_AUTH_KEY: AUTH, TENURE_CLOCK: 'event', LOG_LEVEL: 'warn' },
    },
  ];
}

async function load(url: string, bodies: string[], seconds: number): Promise<autocannon.Result> {
  let next = 0;
  return autocannon({
    url: `${url}/webhook`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json', authorization: AUTH },
    requests: [
      {
        setupRequest: (request) => {
          request.body = bodies[next % bodies.length]!;
          next += 1;
          return request;
        },
      },
    ],
  });
}

async function measureTarget(target: Target, bodies: string[]): Promise<HttpResult> {
  const running = await runTarget(target.args, target.env, 0);
  try {
    await load(running.url, bodies, WARMUP_SECONDS);
    const cpuBefore = running.cpuMicros();
    const result = await load(running.url, bodies, SECONDS);
    const cpu = running.cpuMicros() - cpuBefore;
    const completed = result['2xx'] + result.non2xx;
    return {
      name: target.name,
      rps: completed / SECONDS,
      p99: result.latency.p99,
      cpuMicrosPerRequest: completed > 0 ? cpu / completed : NaN,
      non2xx: result.non2xx,
      errors: result.errors,
    };
  } finally {
    await running.stop();
  }
}

export async function runServerBench(): Promise<HttpResult[]> {
  // Distinct event ids, so the service does real work (a repeated id would be a cheap duplicate).
  const bodies = syntheticWebhookStrings(Number(process.env.BENCH_HTTP_BODIES ?? 600_000));
  console.log(`\nserver: ${CONNECTIONS} connections, ${WARMUP_SECONDS}s warm-up then ${SECONDS}s per target, ~1 KB real-format bodies`);
  const results: HttpResult[] = [];
  for (const target of targets()) results.push(await measureTarget(target, bodies));
  const base = results[0]!;
  console.log(`${'target'.padEnd(52)} ${'req/s'.padStart(8)} ${'p99 ms'.padStart(7)} ${'CPU µs/req'.padStart(11)} ${'× node:http'.padStart(12)} ${'non-2xx'.padStart(8)}`);
  for (const r of results) {
    const ratio = r === base ? 'baseline' : (r.rps / base.rps).toFixed(2);
    console.log(
      `${r.name.padEnd(52)} ${r.rps.toFixed(0).padStart(8)} ${r.p99.toFixed(1).padStart(7)} ${r.cpuMicrosPerRequest.toFixed(0).padStart(11)} ${ratio.padStart(12)} ${String(r.non2xx + r.errors).padStart(8)}`,
    );
  }
  const tenure = results[results.length - 1]!;
  const ratio = tenure.rps / base.rps;
  console.log(`\nbar: ${ratio >= 0.7 ? 'MET ' : 'MISS'} tenure serve / bare node:http = ${ratio.toFixed(2)} (bar 0.70)`);
  return results;
}
