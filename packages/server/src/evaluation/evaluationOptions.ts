/**
 * From the parsed flags, the history and the config file to the core's backtest and tune options,
 * and from the core's refusals (`{ ok: false, errors: [{ field, message }] }`) back to the flags
 * they are about.
 */
import { historySpan, type BacktestOptions, type Calibration, type FieldError, type StoredRecord, type TenureConfig } from '@tenure/core';
import { defaultWindow, type EvaluationArgs } from './evaluationArgs.js';
import { formatDurationText } from './timeText.js';

/** The flag behind each option field the core can refuse. */
const FLAG_BY_FIELD: Record<string, string> = {
  horizon_ms: '--horizon',
  step_ms: '--step',
  lapse_ms: '--lapse',
  from: '--from',
  to: '--to',
  cutoffs: '--from/--to',
  history: '--events',
  holdout: '--holdout',
  seed: '--seed',
  rounds: '--rounds',
};

/**
 * Given the core's field errors, returns them as one line naming the flags (`--horizon: The horizon
 * (60 days) is longer than the history (40.0 days)`). Pure.
 *
 * @example
 * optionErrorLine([{ field: 'holdout', message: 'Expected a share between 0 and 1' }]); // '--holdout: Expected a share between 0 and 1'
 */
export function optionErrorLine(errors: readonly FieldError[]): string {
  return errors.map((e) => `${FLAG_BY_FIELD[e.field] ?? e.field}: ${e.message}`).join('; ');
}

/** The window and scoring options of one run (no calibration, no progress). */
export type WindowOptions = Required<Pick<BacktestOptions, 'from' | 'to' | 'step_ms' | 'horizon_ms' | 'config'>> & Pick<BacktestOptions, 'lapse_ms'>;

/**
 * Given the flags, the history and the configuration to score with, returns the core's options:
 * the flags' window, or where a bound is not given the default window of the history
 * (`defaultWindow`). Pure.
 *
 * @example
 * backtest(records, windowOptions(args, records, config));
 */
export function windowOptions(args: EvaluationArgs, records: readonly StoredRecord[], config: TenureConfig): WindowOptions {
  return windowOptionsOf(args, historySpan(records), config);
}

/**
 * As `windowOptions`, given the history's span (a spilled history knows it without its records). Pure.
 *
 * @example
 * backtestHistory(history, windowOptionsOf(args, history.span, config));
 */
export function windowOptionsOf(args: EvaluationArgs, span: { first: number; last: number } | null, config: TenureConfig): WindowOptions {
  const derived = span === null ? null : defaultWindow(span, args.horizonMs);
  return {
    // Without a span the core refuses the history before it reads the window.
    from: args.from ?? derived?.from ?? 0,
    to: args.to ?? derived?.to ?? 0,
    step_ms: args.stepMs,
    horizon_ms: args.horizonMs,
    config,
    ...(args.lapseMs === undefined ? {} : { lapse_ms: args.lapseMs }),
  };
}

/**
 * Given a config file's calibration and the run's horizon, returns null when it can judge this run,
 * else the one line that says why not (it gives the chance of churning within another horizon). Pure.
 *
 * @example
 * calibrationProblem(calibration, 60 * DAY_MS); // 'the calibration in tenure.config.json is for a 30d horizon; run with --horizon 30d'
 */
export function calibrationProblem(calibration: Calibration | null, horizonMs: number, path: string): string | null {
  if (calibration === null || calibration.horizon_ms === horizonMs) return null;
  const fitted = formatDurationText(calibration.horizon_ms);
  return `the calibration in ${path} gives the chance of churning within ${fitted}, not ${formatDurationText(horizonMs)}: run with --horizon ${fitted}`;
}
