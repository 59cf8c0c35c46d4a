/**
 * `npm run bench -- population`: the billing simulator's population generator (issue #12 §3) on
 * 100 k customers over 12 months (`BENCH_POPULATION_CUSTOMERS`, `BENCH_POPULATION_MONTHS`), in CPU
 * time of the process: generation alone (every customer's lifecycle run through the simulator's
 * operations, its webhook bodies, activity and truth), then the CLI writing its outputs to files
 * (`tenure-billing-sim population` in process). Baseline, in the same run: `JSON.stringify` of the
 * same webhook bodies, the floor of writing them.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePopulation, populationMain, type WebhookBody } from '@tenure/billing-sim';
import { timed, type Timed } from './processUsage.js';
import { printTable } from './store/latency.js';

const CUSTOMERS = Number(process.env['BENCH_POPULATION_CUSTOMERS'] ?? 100_000);
const MONTHS = Number(process.env['BENCH_POPULATION_MONTHS'] ?? 12);
const SEED = 'bench';

export async function runPopulationBench(): Promise<void> {
  console.log(`\nPopulation generator: ${CUSTOMERS.toLocaleString('en-US')} customers over ${MONTHS} months (seed ${SEED}); CPU time of the process`);
  const options = { customers: CUSTOMERS, months: MONTHS, seed: SEED };

  // Baseline: JSON.stringify of the same bodies, held in memory for it (not timed: the generation).
  let bodies: WebhookBody[] = [];
  let activity = 0;
  for (const c of generatePopulation(options)) {
    for (const b of c.events) bodies.push(b);
    activity += c.activity.length;
  }
  const events = bodies.length;
  let bytes = 0;
  const stringify = await timed(() => {
    for (const b of bodies) bytes += JSON.stringify(b).length;
  });
  bodies = [];

  let customers = 0;
  const generate = await timed(() => {
    for (const c of generatePopulation(options)) customers += c.events.length > 0 ? 1 : 0;
  });
  if (customers !== CUSTOMERS) throw new Error(`generated ${customers} customers`);

  const dir = mkdtempSync(join(tmpdir(), 'bench-population-'));
  const rows: string[][] = [];
  const row = (name: string, t: Timed, files: string[]) => {
    const mb = files.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0) / 1e6;
    rows.push([name, t.cpuMs.toFixed(0), t.wallMs.toFixed(0), (stringify.cpuMs / t.cpuMs).toFixed(2), mb === 0 ? '' : mb.toFixed(0)]);
  };
  const cli = async (name: string, flags: [string, string][]) => {
    const argv = ['--customers', String(CUSTOMERS), '--months', String(MONTHS), '--seed', SEED, ...flags.flatMap(([flag, file]) => [flag, join(dir, file)])];
    const io = { out: () => undefined, err: (line: string) => (line.startsWith('population:') ? undefined : console.error(line)) };
    let code = -1;
    const t = await timed(async () => (code = await populationMain(argv, io, process.stdout)));
    if (code !== 0) throw new Error(`population ${argv.join(' ')} exited ${code}`);
    row(name, t, flags.map(([, file]) => file));
    for (const [, file] of flags) rmSync(join(dir, file));
  };
  try {
    rows.push(['JSON.stringify of the same bodies (baseline)', stringify.cpuMs.toFixed(0), stringify.wallMs.toFixed(0), 'baseline', (bytes / 1e6).toFixed(0)]);
    row('generate: lifecycles, bodies, activity, truth (no output)', generate, []);
    await cli('CLI --webhooks --activity --truth (files)', [['--webhooks', 'webhooks.ndjson'], ['--activity', 'activity.ndjson'], ['--truth', 'truth.ndjson']]);
    await cli('CLI --records (webhooks and activity, tenure export lines)', [['--records', 'records.ndjson']]);
    await cli('CLI --export (version 5 CSV)', [['--export', 'export.csv']]);
    await cli('CLI --export export.csv.gz (gzip)', [['--export', 'export.csv.gz']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${events.toLocaleString('en-US')} webhooks, ${activity.toLocaleString('en-US')} activity reports`);
  printTable(['figure', 'CPU ms', 'wall ms', '× baseline (CPU)', 'MB'], rows);
}
