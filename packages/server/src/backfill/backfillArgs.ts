/**
 * Arguments of `tenure backfill`: flags and environment into one validated object, and its help
 * text. Pure, so it is tested without a process. The secret key comes from `REVENUECAT_API_KEY`
 * only: a flag would show it in the process list.
 */
import { parseArgs } from 'node:util';
import { parseClockSpec, type ClockSpec } from '../clock/clock.js';
import { DEFAULT_STORE_SPEC } from '../store/openStore.js';
import type { BackfillEnvironment } from './backfill.js';

/** RevenueCat's API v2. */
export const DEFAULT_API_BASE_URL = 'https://api.revenuecat.com/v2';

/** What `tenure backfill` was asked to do. */
export interface BackfillArgs {
  project: string;
  apiKey: string;
  baseUrl: string;
  environment: BackfillEnvironment;
  store: string;
  clock: ClockSpec;
  /** The configuration file (`--config` / `TENURE_CONFIG`) whose rules score the rows; undefined: the defaults. */
  configFile: string | undefined;
  pageSize: number;
  /** Stop after this many customer pages (the checkpoint says where to resume); null: all. */
  maxPages: number | null;
  /** How many customers the list holds (the API does not count them); null: count them first. */
  expectedCustomers: number | null;
  timeoutMs: number;
  /** Start over: remove the checkpoint of an earlier run first. */
  restart: boolean;
  json: boolean;
}

export type ParsedBackfillArgs = { ok: true; help: true } | { ok: true; help: false; args: BackfillArgs } | { ok: false; error: string };

const OPTIONS = {
  project: { type: 'string' },
  'base-url': { type: 'string' },
  environment: { type: 'string' },
  store: { type: 'string' },
  clock: { type: 'string' },
  config: { type: 'string' },
  'page-size': { type: 'string' },
  'max-pages': { type: 'string' },
  'expected-customers': { type: 'string' },
  'timeout-ms': { type: 'string' },
  restart: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const pick = (flag: string | undefined, env: string | undefined): string | undefined => (flag !== undefined && flag !== '' ? flag : env !== undefined && env !== '' ? env : undefined);

/** A whole number in [min, max], or the error naming the flag. */
function whole(name: string, text: string | undefined, fallback: number | null, min: number, max: number): { ok: true; value: number | null } | { ok: false; error: string } {
  if (text === undefined) return { ok: true, value: fallback };
  const n = Number(text);
  return /^\d+$/.test(text) && n >= min && n <= max ? { ok: true, value: n } : { ok: false, error: `--${name} must be a whole number from ${min} to ${max}, got "${text}"` };
}

/**
 * Given the arguments after `backfill` and the environment, returns the validated arguments, a help
 * request, or the first error. Pure.
 *
 * @example
 * parseBackfillArgs(['--project', 'proj1ab2c3d4'], { REVENUECAT_API_KEY: 'sk_...' }); // { ok: true, help: false, args: { project: 'proj1ab2c3d4', ... } }
 */
export function parseBackfillArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ParsedBackfillArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (values['help'] === true) return { ok: true, help: true };
  const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);

  const project = text('project');
  if (project === undefined || project === '' || project.length > 255) return { ok: false, error: '--project must name the RevenueCat project id (1 to 255 characters)' };
  const apiKey = env['REVENUECAT_API_KEY'];
  if (apiKey === undefined || apiKey === '') return { ok: false, error: 'set REVENUECAT_API_KEY to a secret API v2 key (not a flag: flags show in the process list)' };
  const baseUrl = pick(text('base-url'), env['REVENUECAT_API_BASE_URL']) ?? DEFAULT_API_BASE_URL;
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return { ok: false, error: `--base-url must be an http or https URL, got "${baseUrl}"` };
  const environment = text('environment') ?? 'production';
  if (environment !== 'production' && environment !== 'sandbox') return { ok: false, error: `--environment must be production or sandbox, got "${environment}"` };
  const clockText = pick(text('clock'), env['TENURE_CLOCK']) ?? 'wall';
  const clock = parseClockSpec(clockText);
  if (clock === undefined) return { ok: false, error: `--clock / TENURE_CLOCK must be "wall", "event" or an ISO time, got "${clockText}"` };
  const pageSize = whole('page-size', text('page-size'), 100, 1, 100);
  if (!pageSize.ok) return pageSize;
  const maxPages = whole('max-pages', text('max-pages'), null, 1, 1_000_000_000);
  if (!maxPages.ok) return maxPages;
  const expected = whole('expected-customers', text('expected-customers'), null, 1, 1_000_000_000);
  if (!expected.ok) return expected;
  const timeout = whole('timeout-ms', text('timeout-ms'), 30_000, 100, 600_000);
  if (!timeout.ok) return timeout;

  return {
    ok: true,
    help: false,
    args: {
      project,
      apiKey,
      baseUrl,
      environment,
      store: pick(text('store'), env['DATABASE_URL']) ?? DEFAULT_STORE_SPEC,
      clock,
      configFile: pick(text('config'), env['TENURE_CONFIG']),
      pageSize: pageSize.value ?? 100,
      maxPages: maxPages.value,
      expectedCustomers: expected.value,
      timeoutMs: timeout.value ?? 30_000,
      restart: values['restart'] === true,
      json: values['json'] === true,
    },
  };
}

export const BACKFILL_HELP = `Usage: tenure backfill --project ID [options]

Read a RevenueCat project's customers over API v2 into the store, so the at-risk list is right from
day one: every customer's subscriptions (with their transactions) and one-time purchases become the
webhook events they stand for, applied as webhooks are (ids derived from the API objects, so a
second backfill stores nothing twice). Pages through GET /projects/{id}/customers, honours the rate
limit headers (slows down near the limit, waits out a 429), retries server and network errors, and
keeps a checkpoint in the store after each page: run it again after a stop and it resumes there.
See docs/import.md ("Backfill over API v2") for what API v2 can and cannot tell.

The secret key is read from REVENUECAT_API_KEY (never a flag: flags show in the process list).

Options (flag | environment variable | default):
  --project <id>                       required
  --base-url <url>      REVENUECAT_API_BASE_URL   ${DEFAULT_API_BASE_URL}
        e.g. http://127.0.0.1:4000/v2 for tenure-billing-sim.
  --environment <env>                  production
        production or sandbox (sandbox goes to the store's sandbox namespace, as sandbox webhooks do).
  --store <spec>        DATABASE_URL   sqlite:./data/tenure.db
  --clock <mode>        TENURE_CLOCK   wall
  --config <file>       TENURE_CONFIG  unset: the default rules
        The configuration file "tenure serve" runs: its rules score the rows written.
  --page-size <n>                      100 customers per page (1-100; one store transaction each)
  --max-pages <n>                      all: stop after n pages (keeping the checkpoint)
  --expected-customers <n>             counted: how many customers the list holds, for the ETA;
        without it the list is counted first (one request per 100 customers).
  --timeout-ms <ms>                    30000 per request
  --restart             Start from the first page, removing the checkpoint of an earlier run.
  --json                Print the report as JSON on stdout (the summary still goes to stderr).
  -h, --help            Show this help

Exit status: 0 done (or stopped by --max-pages); 1 the API refused the key (401/403), the project
is unknown (404), the API kept failing after retries, or the store failed: one line on stderr, the
checkpoint kept; also 1 when some events were rejected (listed; the others are stored); 2 flags
that do not parse or no REVENUECAT_API_KEY; 130 interrupted (SIGINT/SIGTERM).
`;
