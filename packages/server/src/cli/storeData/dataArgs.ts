/**
 * Arguments of `tenure replay`, `tenure export` and `tenure import`: flags and environment into one
 * validated object. Pure, so it is tested without a process.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DEFAULT_CONFIG, isEpochMs, type TenureConfig } from '@tenure/core';
import { parseClockSpec, type ClockSpec } from '../../clock/clock.js';
import { DEFAULT_STORE_SPEC } from '../../store/openStore.js';

/** The three data commands. */
export type DataCommand = 'replay' | 'export' | 'import';

/** What a data command was asked to do. Fields a command does not take keep their defaults. */
export interface DataArgs {
  /** Store spec text (`--store` / `DATABASE_URL`), parsed later by `parseStoreSpec`. */
  store: string;
  clock: ClockSpec;
  /** replay, import: the configuration file (`--config` / `TENURE_CONFIG`) whose rules score the rows. */
  configFile: string | undefined;
  /** The rules rows are scored with: `DEFAULT_CONFIG` here; the runner puts the file's in. */
  config: TenureConfig;
  /** export: the file to write; undefined writes to stdout. */
  out: string | undefined;
  /** import: the file to read, `-` for stdin. */
  input: string;
  /** import: print the report as JSON on stdout. */
  json: boolean;
  /** import: events per transaction. */
  batchSize: number;
  /** import: `ndjson` (what `tenure export` writes) or `revenuecat-export` (RevenueCat's data export, version 5). */
  format: ImportFormat;
  /** import --format revenuecat-export: import sandbox rows too. */
  includeSandbox: boolean;
  /** import --format revenuecat-export: the export's instant (epoch ms); null = its latest `updated_at`. */
  asOf: number | null;
}

/** The file formats `tenure import` reads. */
export const IMPORT_FORMATS = ['ndjson', 'revenuecat-export'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export type ParsedDataArgs = { ok: true; help: true } | { ok: true; help: false; args: DataArgs } | { ok: false; error: string };

const COMMON = {
  store: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const OPTIONS = {
  replay: { ...COMMON, clock: { type: 'string' }, config: { type: 'string' } },
  export: { ...COMMON, out: { type: 'string', short: 'o' } },
  import: {
    ...COMMON,
    clock: { type: 'string' },
    config: { type: 'string' },
    json: { type: 'boolean' },
    'batch-size': { type: 'string' },
    format: { type: 'string' },
    'include-sandbox': { type: 'boolean' },
    'as-of': { type: 'string' },
    events: { type: 'string' },
  },
} as const;

/** An empty string counts as unset (e.g. `DATABASE_URL=` in a .env file). */
const pick = (flag: string | undefined, env: string | undefined): string | undefined =>
  flag !== undefined && flag !== '' ? flag : env !== undefined && env !== '' ? env : undefined;

/**
 * Given a data command, the arguments after it and the environment, returns the validated
 * arguments, a help request, or the first error. Pure.
 *
 * @example
 * parseDataArgs('import', ['backup.ndjson', '--json'], process.env); // { ok: true, help: false, args: { input: 'backup.ndjson', json: true, ... } }
 */
export function parseDataArgs(command: DataCommand, argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ParsedDataArgs {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    const options: ParseArgsConfig['options'] = OPTIONS[command];
    ({ values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: command === 'import' }));
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (values['help'] === true) return { ok: true, help: true };
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);

  const clockText = pick(text('clock'), env['TENURE_CLOCK']) ?? 'wall';
  const clock = parseClockSpec(clockText);
  if (clock === undefined) return { ok: false, error: `--clock / TENURE_CLOCK must be "wall", "event" or an ISO time, got "${clockText}"` };

  // An export's import folds each customer once whatever the batches; a batch is what it holds in memory and commits at once (docs/import.md, Benchmark).
  const batchText = text('batch-size') ?? (text('format') === 'revenuecat-export' ? '10000' : '1000');
  const batchSize = Number(batchText);
  if (!/^\d+$/.test(batchText) || batchSize < 1 || batchSize > 100_000) return { ok: false, error: `--batch-size must be a whole number from 1 to 100000, got "${batchText}"` };

  // The file as the argument, or as `--events FILE` as `tenure backtest` and `tenure tune` take it.
  const flagged = text('events');
  if (command === 'import' && flagged !== undefined && positionals.length > 0) {
    return { ok: false, error: `the file is given twice (--events ${flagged} and ${positionals[0]}): give it once` };
  }
  if (command === 'import' && flagged !== undefined) positionals = [flagged];
  if (command === 'import' && positionals.length !== 1) {
    return { ok: false, error: positionals.length === 0 ? 'name the file to import (FILE or --events FILE; - for stdin)' : `one file at a time, got ${positionals.length}` };
  }
  const formatText = text('format') ?? 'ndjson';
  if (!(IMPORT_FORMATS as readonly string[]).includes(formatText)) return { ok: false, error: `--format must be ${IMPORT_FORMATS.join(' or ')}, got "${formatText}"` };
  const format = formatText as ImportFormat;
  if (format !== 'revenuecat-export' && (values['include-sandbox'] === true || text('as-of') !== undefined)) {
    return { ok: false, error: '--include-sandbox and --as-of apply to --format revenuecat-export only' };
  }
  const asOfText = text('as-of');
  const asOf = asOfText === undefined ? null : Date.parse(asOfText);
  if (asOf !== null && (Number.isNaN(asOf) || !isEpochMs(asOf))) return { ok: false, error: `--as-of must be an ISO time from 2000 to 2099, got "${asOfText}"` };
  const out = text('out');
  if (out === '') return { ok: false, error: '--out needs a file name' };

  return {
    ok: true,
    help: false,
    args: {
      store: pick(text('store'), env['DATABASE_URL']) ?? DEFAULT_STORE_SPEC,
      clock,
      configFile: command === 'export' ? undefined : pick(text('config'), env['TENURE_CONFIG']),
      config: DEFAULT_CONFIG,
      out,
      input: positionals[0] ?? '-',
      json: values['json'] === true,
      batchSize,
      format,
      includeSandbox: values['include-sandbox'] === true,
      asOf,
    },
  };
}
