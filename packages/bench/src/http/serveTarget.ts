/** Starts `tenure serve` (the built CLI of @tenure/server) on a given store as a benchmark target. */
import { createRequire } from 'node:module';
import { runTarget, type RunningTarget } from './runTarget.js';
import { WEBHOOK_AUTH } from './webhookLoad.js';

const require = createRequire(import.meta.url);

/** The bearer key the targets require on /api (as a production deployment would). */
export const API_AUTH = 'Bearer bench-api';

/**
 * How to run the `tenure` CLI: the build, as `npm install` (prepare → build) leaves it, or with
 * BENCH_FROM_SOURCE=1 the TypeScript sources through tsx (no build needed; same code, slower start).
 */
export function tenureCli(): string[] {
  const root = require.resolve('@tenure/server/package.json').replace(/package\.json$/, '');
  return process.env['BENCH_FROM_SOURCE'] === '1' ? ['--conditions=@tenure/source', '--import', 'tsx', `${root}src/cli.ts`] : [`${root}dist/cli.js`];
}

export interface ServeOptions {
  /** `--store`: `memory`, `sqlite:PATH`, `postgres://…?schema=…`. */
  store: string;
  /** taskset core list. */
  cores: number | string;
  /** TENURE_CLOCK: `event` (time follows the events, as the older server bench ran) or `wall`. */
  clock: 'event' | 'wall';
}

/**
 * Extra node flags for every `tenure serve` target, from the environment: `BENCH_SERVE_PROFILE=DIR`
 * writes a CPU profile of each target into DIR when it stops (`--cpu-prof`; the service exits
 * gracefully on SIGTERM, so the profile is written).
 */
function serveNodeFlags(): string[] {
  const dir = process.env['BENCH_SERVE_PROFILE'];
  return dir === undefined || dir === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/** Given a store spec, the cores and the clock, starts `tenure serve` and resolves once it answers. */
export function startServe(options: ServeOptions): Promise<RunningTarget> {
  return runTarget([...serveNodeFlags(), ...tenureCli(), 'serve', '--store', options.store], serveEnv(options.clock), options.cores);
}

/** The environment every `tenure serve` target runs with: the bench's webhook secret and API key, quiet logs. */
export function serveEnv(clock: ServeOptions['clock']): Record<string, string> {
  return {
    BILLING_WEBHOOK_AUTH_KEY: WEBHOOK_AUTH,
    TENURE_API_KEY: API_AUTH.slice('Bearer '.length),
    TENURE_CLOCK: clock,
    LOG_LEVEL: 'warn',
  };
}
