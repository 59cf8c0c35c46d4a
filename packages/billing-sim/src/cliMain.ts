/** The command line of the simulator: serve (default), replay or export a scenario file, or generate a population. */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { listenErrorSetting } from '@tenure/http-edge';
import { runExportCommand } from './export/runExportCommand.js';
import { populationMain } from './population/populationMain.js';
import { runScenario } from './scenario/runScenario.js';
import { webhookIntegrationsOf } from './machine/integrations.js';
import { appsOf, publicKeyOf } from './v2/apps.js';
import { isLevelEnabled } from './cliLog.js';
import { readCommonSettings, readServeSettings, type ServeSettings } from './cliSettings.js';
import { VERSION } from './cliVersion.js';
import { startBillingSim, type RunningBillingSim } from './startBillingSim.js';

export const HELP = `tenure-billing-sim: a local stand-in for RevenueCat, to develop and test against
  API v1 (what the SDKs and backends call) and API v2 (projects, customers, subscriptions, purchases,
  catalog, offerings, webhook integrations, virtual currencies, metrics), with a /sim control API and
  a control page at /, a virtual clock, and real webhook deliveries (retries, faults) to your receiver.

Usage:
  tenure-billing-sim [serve] [options]      serve the API (default)
  tenure-billing-sim run <scenario.json>    replay a scenario file and report each step
  tenure-billing-sim export <scenario.json> [--out FILE] [--gzip]
                                            replay a scenario and write its history as RevenueCat's
                                            data export (version 5 CSV; gzip with --gzip or FILE.gz)
  tenure-billing-sim population [--customers N] [--months M] [--seed S] --webhooks FILE ...
                                            generate a population with a known truth: webhooks,
                                            activity, records, export, truth or HTTP delivery
                                            (tenure-billing-sim population --help)

Options (environment variable in brackets; a flag wins, an empty variable counts as unset; a bad
value, or a host or port it cannot listen on, exits 2 with one line naming it as given):
  --port <n>              port to listen on, default 4000            [BILLING_SIM_PORT]
  --host <h>              host to bind, default 127.0.0.1            [BILLING_SIM_HOST]
  --seed <s>              seed of ids and fault decisions             [BILLING_SIM_SEED]
  --start <iso>           start of the virtual clock, default now     [BILLING_SIM_START]
  --follow-wall-clock     the virtual clock follows the wall clock (renewals in real time,
                          as the SDKs on a device expect; advancing still jumps ahead)
                                                                      [BILLING_SIM_FOLLOW_WALL_CLOCK=true]
  --webhook-url <url>     where webhooks are POSTed: creates one webhook [BILLING_SIM_WEBHOOK_URL]
                          integration of the default project (serve)
  --webhook-auth <value>  its Authorization value, sent verbatim      [BILLING_SIM_WEBHOOK_AUTH]
  --retry-schedule <s>    real (5..80 min) or fast (50..800 ms)       [BILLING_SIM_RETRY_SCHEDULE]
  --shutdown-timeout-ms <n>  bound of a graceful stop, default 10000  [BILLING_SIM_SHUTDOWN_TIMEOUT_MS]
  --rate-limits <v>       API v2 rate limits: on (documented, default), off, or
                          a window in ms (the documented limits per window) [BILLING_SIM_RATE_LIMITS]
  --project <id>          a project that exists besides proj_sim (repeatable) [BILLING_SIM_PROJECTS, comma-separated]
  --log-level <level>     fatal, error, warn, info (default), debug (each webhook
                          delivery step), trace or silent                  [LOG_LEVEL]
  --metrics-public        serve GET /metrics without the API key      [METRICS_PUBLIC=true]
  -h, --help              show this help
  -v, --version           print the version
  API key: set BILLING_SIM_API_KEY to require "Authorization: Bearer <key>" on /v2, /sim
  and GET /metrics (Prometheus; unless --metrics-public); API v1 then takes that secret key and
  the projects' public keys (serve prints the default project's Test Store key; unset, API v1
  takes any key: public prefixes as an app's, others as the secret one).
`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** Parses argv and env; returns the exit code (serve resolves once listening, with `running`). */
export async function main(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<{ code: number; running?: RunningBillingSim }> {
  // Its own flags, each checked with a one-line message.
  if (argv[0] === 'population') return { code: await populationMain(argv.slice(1), io, process.stdout) };
  const usage = (line: string) => (io.err(`tenure-billing-sim: ${line}`), { code: 2 });
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        start: { type: 'string' },
        'webhook-url': { type: 'string' },
        'webhook-auth': { type: 'string' },
        'retry-schedule': { type: 'string' },
        'shutdown-timeout-ms': { type: 'string' },
        'rate-limits': { type: 'string' },
        'log-level': { type: 'string' },
        'metrics-public': { type: 'boolean' },
        'follow-wall-clock': { type: 'boolean' },
        project: { type: 'string', multiple: true },
        out: { type: 'string', short: 'o' },
        gzip: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    return usage(`${err instanceof Error ? err.message : String(err)} (tenure-billing-sim --help lists the options)`);
  }
  const { values, positionals } = parsed;
  if (values.version) {
    io.out(VERSION);
    return { code: 0 };
  }
  if (values.help) {
    io.out(HELP);
    return { code: 0 };
  }
  const common = readCommonSettings(values, env);
  if (!common.ok) return usage(common.error);
  const { level, metricsPublic, retrySchedule, integration } = common.value;
  const schedule = retrySchedule === undefined ? {} : { retry_schedule: retrySchedule };
  const [command = 'serve', file] = positionals;
  if (command === 'export') {
    const scenario = readScenarioFile(file, 'export', io);
    if (!scenario.ok) return { code: 2 };
    const json = scenario.json;
    const out = values.out;
    try {
      const done = await runExportCommand({ scenario: json, out, gzip: values.gzip === true || (out?.endsWith('.gz') ?? false), stdout: process.stdout });
      io.err(`exported ${done.rows} transactions${out === undefined ? '' : ` to ${out}`}${done.ok ? '' : ' (some scenario steps failed)'}`);
      return { code: 0 };
    } catch (err) {
      io.err(`export failed: ${err instanceof Error ? err.message : String(err)}`);
      return { code: 1 };
    }
  }
  if (command === 'run') {
    const scenario = readScenarioFile(file, 'run', io);
    if (!scenario.ok) return { code: 2 };
    const json = scenario.json;
    const target = integration === null ? {} : { url: integration.url, authorization: integration.authorization_header ?? null };
    let run;
    try {
      run = runScenario(json, { webhook: { retry_schedule: 'fast', ...schedule, ...target } });
    } catch (err) {
      io.err(`invalid scenario ${file}: ${err instanceof Error ? err.message : String(err)}`);
      return { code: 2 };
    }
    for (const s of run.steps) io.out(`${s.ok ? 'ok  ' : 'FAIL'} ${s.index + 1}. ${s.name}${s.ok ? '' : `: ${s.message}`}`);
    await run.sim.outbox.idle();
    run.sim.close();
    io.out(`${run.ok ? 'PASS' : 'FAIL'} ${run.name} (${run.steps.filter((s) => s.ok).length}/${run.steps.length} steps, ${run.sim.events().length} events)`);
    return { code: run.ok ? 0 : 1 };
  }
  if (command !== 'serve') {
    io.err(`unknown command ${command}\n\n${HELP}`);
    return { code: 2 };
  }
  const serve = readServeSettings(values, env, Date.now());
  if (!serve.ok) return usage(serve.error);
  const s = serve.value;
  let running: RunningBillingSim;
  try {
    running = await startBillingSim({
      rateLimits: s.rateLimits,
      projects: s.projects,
      port: s.port,
      host: s.host,
      now: s.now,
      followWallClock: s.followWallClock,
      // serve: the webhook flags are a shortcut for one webhook integration of the default project
      // (what API v2's POST /integrations/webhooks creates); the retry schedule stays delivery-wide.
      webhook: schedule,
      ...(integration === null ? {} : { integrations: [integration] }),
      apiKey: env['BILLING_SIM_API_KEY'] ?? null,
      metricsPublic,
      log: (line) => {
        if (isLevelEnabled(level, 'warn')) io.err(line);
      },
      shutdownTimeoutMs: s.shutdownTimeoutMs,
      ...(s.seed === undefined ? {} : { seed: s.seed }),
    });
  } catch (error) {
    return { code: reportStartFailure(error, s, io) };
  }
  const hooks = webhookIntegrationsOf(running.sim.world(), null).map((i) => `${i.url} (integration ${i.id})`);
  if (isLevelEnabled(level, 'debug')) {
    running.sim.outbox.observe((outcome, ms) => io.err(`webhook delivery: ${outcome}${ms === null ? '' : ` (${ms} ms)`}`));
  }
  if (isLevelEnabled(level, 'info')) {
    io.out(`tenure-billing-sim listening on ${running.url} (seed ${running.sim.seed}; webhooks → ${hooks.join(', ') || 'none'})`);
    io.out(`  the SDKs: proxyURL ${running.url}, Test Store API key ${testStoreKeyOf(running)}`);
  }
  return { code: 0, running };
}

/** The default project's Test Store public key (what an app configures the SDK with). */
function testStoreKeyOf(running: RunningBillingSim): string {
  const app = appsOf(running.sim.settings).find((a) => a.store === 'TEST_STORE');
  return app === undefined ? 'none' : publicKeyOf(running.sim.settings.default_project_id, app);
}

/**
 * Says in one line why serving did not start and returns the exit code: 2 naming the host or port
 * setting a failed listen blames (as given: flag or variable), else 1 with the error.
 */
function reportStartFailure(error: unknown, s: ServeSettings, io: CliIo): number {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
  const setting = listenErrorSetting(error, s.host);
  if (setting === null) {
    io.err(`tenure-billing-sim: ${message}`);
    return 1;
  }
  io.err(`tenure-billing-sim: cannot listen on ${s.names[setting]} ${setting === 'host' ? `"${s.host}"` : s.port}: ${message}`);
  return 2;
}

/** Reads and parses a command's scenario file, or says in one line why it cannot (the caller exits 2). */
function readScenarioFile(file: string | undefined, command: string, io: CliIo): { ok: true; json: unknown } | { ok: false } {
  if (file === undefined) {
    io.err(`${command} needs a scenario file\n\n` + HELP);
    return { ok: false };
  }
  try {
    return { ok: true, json: JSON.parse(readFileSync(file, 'utf8')) as unknown };
  } catch (err) {
    io.err(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
    return { ok: false };
  }
}
