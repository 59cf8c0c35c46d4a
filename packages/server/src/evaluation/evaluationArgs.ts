/**
 * Arguments of `tenure backtest` and `tenure tune`: flags into one validated object, or the one
 * line that says what is wrong. Pure, so it is tested without a process.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DAY_MS } from '@tenure/core';
import { IMPORT_FORMATS, type ImportFormat } from '../cli/storeData/dataArgs.js';
import { parseDateText, parseDurationText } from './timeText.js';

/** The two evaluation commands. */
export type EvaluationCommand = 'backtest' | 'tune';

/** What an evaluation command was asked to do. */
export interface EvaluationArgs {
  command: EvaluationCommand;
  /** The history: a file of `tenure export` NDJSON or a RevenueCat data export (CSV v5, plain or gzip). */
  events: string;
  format: ImportFormat;
  horizonMs: number;
  stepMs: number;
  lapseMs: number | undefined;
  /** Explicit window ends; null: derived from the history (`defaultWindow`). */
  from: number | null;
  to: number | null;
  /** A config file (`tenure tune --out` writes one) to score with, and whose calibration to judge. */
  config: string | undefined;
  json: boolean;
  /** backtest: write the HTML report there. */
  html: string | undefined;
  /** tune: the held-out share of cutoffs (0 < share < 1), the search's seed and rounds, the file to write. */
  holdout: number;
  seed: number;
  rounds: number;
  out: string | undefined;
}

export type ParsedEvaluationArgs = { ok: true; help: true } | { ok: true; help: false; args: EvaluationArgs } | { ok: false; error: string };

const COMMON = {
  events: { type: 'string' },
  format: { type: 'string' },
  horizon: { type: 'string' },
  step: { type: 'string' },
  lapse: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const OPTIONS = {
  backtest: { ...COMMON, html: { type: 'string' } },
  tune: { ...COMMON, holdout: { type: 'string' }, seed: { type: 'string' }, rounds: { type: 'string' }, out: { type: 'string', short: 'o' } },
} as const;

/**
 * Given a holdout text (`25%`, or a share such as `0.25`), returns the share, or null unless it is
 * strictly between 0 and 1. Pure.
 *
 * @example
 * parseHoldout('25%'); // 0.25
 */
export function parseHoldout(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(text);
  if (match === null) return null;
  const share = match[2] === '%' ? Number(match[1]) / 100 : Number(match[1]);
  return share > 0 && share < 1 ? share : null;
}

const wholeNumber = (text: string, min: number, max: number): number | null => (/^-?\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : null);

/**
 * Given the command and the arguments after it, returns the validated arguments, a help request,
 * or the first problem as one line (an unknown flag, no history file or two, a bad duration, date,
 * format, holdout, seed or rounds). Pure.
 *
 * @example
 * parseEvaluationArgs('backtest', ['--events', 'history.ndjson', '--horizon', '30d']);
 * parseEvaluationArgs('tune', ['history.ndjson', '--out', 'tenure.config.json']); // the file as the argument, as import takes it
 */
export function parseEvaluationArgs(command: EvaluationCommand, argv: readonly string[]): ParsedEvaluationArgs {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    const options: ParseArgsConfig['options'] = OPTIONS[command];
    ({ values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true }));
  } catch (error) {
    return { ok: false, error: (error instanceof Error ? error.message : String(error)).split('\n')[0]! };
  }
  if (values['help'] === true) return { ok: true, help: true };
  const fail = (error: string): ParsedEvaluationArgs => ({ ok: false, error });
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);

  // The history as `--events FILE` or as the one argument, as `tenure import FILE` takes it.
  if (positionals.length > 1) return fail(`one history file at a time, got ${positionals.length}: ${positionals.join(', ')}`);
  const flagged = text('events');
  if (flagged !== undefined && positionals.length === 1) return fail(`the history is given twice (--events ${flagged} and ${positionals[0]}): give it once`);
  const events = flagged ?? positionals[0];
  if (events === undefined || events === '') return fail('name the history file (--events FILE, or FILE): what `tenure export` writes, or a RevenueCat data export with --format revenuecat-export');
  const formatText = text('format') ?? 'ndjson';
  if (!(IMPORT_FORMATS as readonly string[]).includes(formatText)) return fail(`--format must be ${IMPORT_FORMATS.join(' or ')}, got "${formatText}"`);

  const duration = (name: string, fallback: string): number | string => {
    const given = text(name) ?? fallback;
    return parseDurationText(given) ?? `--${name} must be a duration such as 30d, 12h or 2w, got "${given}"`;
  };
  const horizonMs = duration('horizon', '30d');
  if (typeof horizonMs === 'string') return fail(horizonMs);
  const stepMs = duration('step', '7d');
  if (typeof stepMs === 'string') return fail(stepMs);
  let lapseMs: number | undefined;
  if (text('lapse') !== undefined) {
    // No allowance at all is a valid lapse (a period past its end is lapsed at once).
    const lapse = /^0+[hdw]$/.test(text('lapse')!) ? 0 : duration('lapse', '3d');
    if (typeof lapse === 'string') return fail(lapse);
    lapseMs = lapse;
  }
  const date = (name: 'from' | 'to'): number | null | string => {
    const given = text(name);
    if (given === undefined) return null;
    return parseDateText(given) ?? `--${name} must be a date (2026-03-01) or an ISO time with its zone (2026-03-01T12:00:00Z) from 2000 to 2099, got "${given}"`;
  };
  const from = date('from');
  if (typeof from === 'string') return fail(from);
  const to = date('to');
  if (typeof to === 'string') return fail(to);
  if (from !== null && to !== null && from > to) return fail(`the window is empty: --from ${text('from')} is after --to ${text('to')}`);

  const holdoutText = text('holdout') ?? '25%';
  const holdout = parseHoldout(holdoutText);
  if (holdout === null) return fail(`--holdout must be a share of the cutoffs strictly between 0 and 100% (e.g. 25%), got "${holdoutText}"`);
  const seed = wholeNumber(text('seed') ?? '1', -(2 ** 31), 2 ** 31 - 1);
  if (seed === null) return fail(`--seed must be a whole number, got "${text('seed')}"`);
  const rounds = wholeNumber(text('rounds') ?? '4', 1, 50);
  if (rounds === null) return fail(`--rounds must be a whole number from 1 to 50, got "${text('rounds')}"`);
  const out = text('out');
  if (command === 'tune' && (out === undefined || out === '')) return fail('--out is required: the config file to write (e.g. --out tenure.config.json)');
  for (const name of ['config', 'html'] as const) if (text(name) === '') return fail(`--${name} needs a file name`);

  return {
    ok: true,
    help: false,
    args: {
      command,
      events,
      format: formatText as ImportFormat,
      horizonMs,
      stepMs,
      lapseMs,
      from,
      to,
      config: text('config'),
      json: values['json'] === true,
      html: text('html'),
      holdout,
      seed,
      rounds,
      out,
    },
  };
}

/**
 * Given the history's first and last record times and the horizon, returns the default window:
 * from the first UTC midnight at least one horizon after the first record (so every cutoff has a
 * past, and cutoffs fall on whole days), to one horizon before the last record (so every cutoff's
 * outcome is known). When no midnight fits, from one horizon after the first record. Pure.
 *
 * @example
 * defaultWindow({ first: Date.UTC(2026, 0, 1, 9), last: Date.UTC(2026, 11, 31) }, 30 * DAY_MS).from; // Date.UTC(2026, 1, 1)
 */
export function defaultWindow(span: { first: number; last: number }, horizonMs: number): { from: number; to: number } {
  const earliest = span.first + horizonMs;
  const to = span.last - horizonMs;
  const midnight = Math.ceil(earliest / DAY_MS) * DAY_MS;
  return { from: midnight <= to ? midnight : earliest, to };
}
