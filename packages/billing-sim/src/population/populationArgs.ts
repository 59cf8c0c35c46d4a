/**
 * The flags of `tenure-billing-sim population`, checked before anything is generated or written:
 * a bad flag is one line saying what is wrong (the CLI exits 2).
 */
import { parseArgs } from 'node:util';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, webhookConfigSchema } from '../delivery/deliveryConfig.js';
import { DEFAULT_POPULATION_START, MAX_POPULATION_CUSTOMERS, MAX_POPULATION_MONTHS, populationWindow } from './generatePopulation.js';

/** The file outputs, by flag: a path, `-` for stdout. */
export const POPULATION_OUTPUTS = ['webhooks', 'activity', 'records', 'export', 'truth'] as const;
export type PopulationOutput = (typeof POPULATION_OUTPUTS)[number];

export interface PopulationArgs {
  customers: number;
  months: number;
  seed: string;
  start: number;
  outputs: Partial<Record<PopulationOutput, string>>;
  webhook: { url: string; authorization: string | null; concurrency: number } | null;
}

export const POPULATION_HELP = `tenure-billing-sim population: a generated population of subscribers with a known truth

Usage:
  tenure-billing-sim population [--customers N] [--months M] [--seed S] [--start ISO] <outputs>

  --customers <n>       customers, 1 to 10000000, default 1000
  --months <m>          months the window spans, 1 to 120, default 12
  --seed <s>            seed: the same seed gives the same output, byte for byte; default "population"
  --start <iso>         start of the window, a whole minute, default 2026-01-01T00:00:00Z
Outputs (at least one; FILE is a path or - for stdout, gzip when it ends in .gz):
  --webhooks FILE       webhook bodies as NDJSON, as the billing service POSTs them
  --activity FILE       app activity as NDJSON, tenure import's {"activity":{"customer_id","at"}} lines
  --records FILE        both in time order per customer: what tenure export writes (tenure import, backtests)
  --export FILE         RevenueCat's data export, version 5 CSV (tenure import --format revenuecat-export)
  --truth FILE          each customer's ground truth as NDJSON (churned or not, when, why, propensity)
  --webhook-url URL     POST every webhook to URL (the simulator's outbox: retries on the fast schedule)
  --webhook-auth VALUE  its Authorization header, sent verbatim
  --concurrency <n>     deliveries in flight, 1 to ${MAX_CONCURRENCY}, default ${DEFAULT_CONCURRENCY}
`;

/** The latest end of a window: its events name instants up to a year later (an annual period), all before 2100-01-01. */
const LATEST_WINDOW_END = Date.UTC(2098, 0, 1);

const wholeNumber = (text: string | undefined, fallback: number, min: number, max: number): number | null => {
  if (text === undefined) return fallback;
  const n = Number(text);
  return /^\d+$/.test(text) && n >= min && n <= max ? n : null;
};

/**
 * Given the arguments after `population`, returns the checked flags, or one line naming what is
 * wrong. Pure (no file is opened).
 *
 * @example
 * parsePopulationArgs(['--customers', '100', '--webhooks', '-']); // { ok: true, value: { customers: 100, ... } }
 */
export function parsePopulationArgs(argv: readonly string[]): { ok: true; value: PopulationArgs } | { ok: false; message: string; help?: true } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      allowPositionals: false,
      strict: true,
      options: {
        customers: { type: 'string' },
        months: { type: 'string' },
        seed: { type: 'string' },
        start: { type: 'string' },
        webhooks: { type: 'string' },
        activity: { type: 'string' },
        records: { type: 'string' },
        export: { type: 'string' },
        truth: { type: 'string' },
        'webhook-url': { type: 'string' },
        'webhook-auth': { type: 'string' },
        concurrency: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    return { ok: false, message: `population: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}` };
  }
  if (values.help === true) return { ok: false, message: POPULATION_HELP, help: true };
  const customers = wholeNumber(values.customers, 1000, 1, MAX_POPULATION_CUSTOMERS);
  if (customers === null) return { ok: false, message: `--customers must be a whole number from 1 to ${MAX_POPULATION_CUSTOMERS}, got "${values.customers}"` };
  const months = wholeNumber(values.months, 12, 1, MAX_POPULATION_MONTHS);
  if (months === null) return { ok: false, message: `--months must be a whole number from 1 to ${MAX_POPULATION_MONTHS}, got "${values.months}"` };
  const seed = values.seed ?? 'population';
  if (seed === '') return { ok: false, message: '--seed must not be empty' };
  const start = values.start === undefined ? DEFAULT_POPULATION_START : Date.parse(values.start);
  // With its offset (Z or ±hh:mm): a local time would make the same flags give other bytes elsewhere.
  if (Number.isNaN(start) || !/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:\d{2})$/.test(values.start ?? '2026-01-01T00:00Z')) {
    return { ok: false, message: `--start must be an ISO 8601 date-time with its offset, such as 2026-01-01T00:00:00Z, got "${values.start}"` };
  }
  if (start % 60_000 !== 0) return { ok: false, message: `--start must be a whole minute (the data export keeps whole seconds), got "${values.start}"` };
  if (start < Date.UTC(2000, 0, 1) || populationWindow({ customers, months, seed, start }).end > LATEST_WINDOW_END) {
    return { ok: false, message: '--start and --months must keep the window between 2000-01-01 and 2098-01-01 (every instant of its events, a year past its end included, before 2100: what the retention service accepts)' };
  }
  const outputs: Partial<Record<PopulationOutput, string>> = {};
  const seen = new Map<string, PopulationOutput>();
  for (const flag of POPULATION_OUTPUTS) {
    const path = values[flag];
    if (path === undefined) continue;
    if (path === '') return { ok: false, message: `--${flag} needs a file name or - for stdout` };
    const other = seen.get(path);
    if (other !== undefined) return { ok: false, message: `--${other} and --${flag} both name ${path === '-' ? 'stdout (-)' : path}: give each output its own` };
    seen.set(path, flag);
    outputs[flag] = path;
  }
  const url = values['webhook-url'];
  const auth = values['webhook-auth'];
  if (url === undefined && (auth !== undefined || values.concurrency !== undefined)) {
    return { ok: false, message: `--${auth !== undefined ? 'webhook-auth' : 'concurrency'} needs --webhook-url` };
  }
  let webhook: PopulationArgs['webhook'] = null;
  if (url !== undefined) {
    if (!webhookConfigSchema.shape.url.safeParse(url).success) return { ok: false, message: `--webhook-url must be an http or https URL, got "${url}"` };
    const concurrency = wholeNumber(values.concurrency, DEFAULT_CONCURRENCY, 1, MAX_CONCURRENCY);
    if (concurrency === null) return { ok: false, message: `--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${values.concurrency}"` };
    webhook = { url, authorization: auth ?? null, concurrency };
  }
  if (seen.size === 0 && webhook === null) {
    return { ok: false, message: 'population needs an output: --webhooks, --activity, --records, --export, --truth (FILE or -) or --webhook-url' };
  }
  return { ok: true, value: { customers, months, seed, start, outputs, webhook } };
}
