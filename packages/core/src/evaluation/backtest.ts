/**
 * The backtest: how well the score would have predicted churn on a history. At each cutoff every
 * live subscriber is assessed from the records before it, and labelled by what happened within the
 * horizon after it; the report pools and splits the outcomes per cutoff.
 */
import { DAY_MS, DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import { err, ok, type FieldError, type Result } from '../result.js';
import { utcDayOf } from '../trends/utcDay.js';
import type { RiskBreakdown } from '../risk/risk.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import type { StoredRecord } from '../store/subscriberStore.js';
import { brierScore, calibrate, type Calibration } from './calibrate.js';
import { DEFAULT_LAPSE_MS } from './churnOutcome.js';
import { prAuc, rocAuc } from './rankMetrics.js';
import { addSample, emptyHistogram, histogramTotals, mergeHistograms, type ScoreHistogram } from './scoreHistogram.js';
import { bandTable, calibrationTable, thresholdTable, type BandRow, type CalibrationRow, type ThresholdRow } from './thresholdMetrics.js';
import { groupHistory, walkCustomers, type GroupedHistory, type WalkSummary } from './walkCutoffs.js';

/** Below this many churners a figure is reported with a warning: too few for a meaningful number. */
export const MIN_POSITIVES = 30;
/** At most this many cutoffs in one backtest. */
export const MAX_CUTOFFS = 1000;

export interface BacktestOptions {
  /** The cutoffs (epoch ms); or `from`, `to` and `step_ms`. */
  cutoffs?: readonly number[];
  from?: number;
  to?: number;
  /** Default 7 days. */
  step_ms?: number;
  /** Churn within this long after a cutoff is a positive. Default 30 days. */
  horizon_ms?: number;
  /** See `hasLapsed`. Default 3 days. */
  lapse_ms?: number;
  config?: TenureConfig;
  /** A calibration to judge (its Brier score); without it, the report's own fit is used (in-sample). */
  calibration?: Calibration;
  /** Called as the walk goes (`done` of `total` customers walked, monotone, ending at `total`): a progress bar's feed. Changes no figure. */
  onProgress?: (done: number, total: number) => void;
}

/** The figures of one set of outcomes (one cutoff, or all pooled). */
export interface EvaluationMetrics {
  subscribers: number;
  churned: number;
  base_rate: number | null;
  roc_auc: number | null;
  pr_auc: number | null;
  brier: number | null;
  /** Fewer churners than `MIN_POSITIVES`: the figures are shown but mean little. */
  too_few_positives: boolean;
  bands: BandRow[];
  thresholds: ThresholdRow[];
  calibration_table: CalibrationRow[];
  histogram: ScoreHistogram;
}

/** How often each signal of the breakdown was non-zero among the assessed subscribers. */
export type SignalCoverage = Record<keyof RiskBreakdown, { nonzero: number; share: number | null }>;

export interface BacktestReport {
  horizon_ms: number;
  lapse_ms: number;
  history: WalkSummary & { first_at: number; last_at: number };
  cutoffs: { at: number; metrics: EvaluationMetrics }[];
  pooled: EvaluationMetrics;
  signals: SignalCoverage;
  /** Isotonic fit on the pooled outcomes: score → churn probability within the horizon. */
  calibration: Calibration;
  /** `given` when the options carried the calibration judged by `brier`; else `in_sample` (the report's own fit). */
  brier_calibration: 'given' | 'in_sample';
  warnings: string[];
}

const SIGNALS = ['state', 'billing_failures', 'renewals', 'inactivity', 'trial_conversion', 'cancel_reason'] as const satisfies readonly (keyof RiskBreakdown)[];

/**
 * Given a histogram and the bands, returns every figure of it, the Brier score against `calibration`. Pure.
 *
 * @example
 * evaluateHistogram(histogram, config.bands, calibration).roc_auc;
 */
export function evaluateHistogram(histogram: ScoreHistogram, bands: TenureConfig['bands'], calibration: Calibration): EvaluationMetrics {
  const { samples, positives } = histogramTotals(histogram);
  return {
    subscribers: samples,
    churned: positives,
    base_rate: samples === 0 ? null : positives / samples,
    roc_auc: rocAuc(histogram),
    pr_auc: prAuc(histogram),
    brier: brierScore(histogram, calibration),
    too_few_positives: positives < MIN_POSITIVES,
    bands: bandTable(histogram, bands),
    thresholds: thresholdTable(histogram),
    calibration_table: calibrationTable(histogram),
    histogram,
  };
}

const isInstant = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);

/**
 * Given a history, returns its first and last record times (events and activity), or null when it
 * has none. Pure.
 *
 * @example
 * historySpan(records); // { first: 1_767_225_600_000, last: 1_798_761_600_000 }
 */
export function historySpan(records: readonly StoredRecord[]): { first: number; last: number } | null {
  let first = Infinity;
  let last = -Infinity;
  for (const r of records) {
    const at = r.kind === 'event' ? r.event.event_timestamp_ms : r.at;
    if (at < first) first = at;
    if (at > last) last = at;
  }
  return first === Infinity ? null : { first, last };
}

/**
 * Given the options and the history's span, returns the cutoffs ascending, or the first problem:
 * an empty window, a horizon longer than the history, a cutoff whose horizon passes its end. Pure.
 */
export function resolveCutoffs(options: BacktestOptions, span: { first: number; last: number } | null): Result<number[], FieldError> {
  const horizon = options.horizon_ms ?? 30 * DAY_MS;
  if (!isInstant(horizon) || horizon <= 0) return err({ field: 'horizon_ms', message: 'Expected a positive whole number of milliseconds' });
  if (span === null) return err({ field: 'history', message: 'The history has no events' });
  if (span.last - span.first < horizon) {
    return err({ field: 'horizon_ms', message: `The horizon (${horizon / DAY_MS} days) is longer than the history (${((span.last - span.first) / DAY_MS).toFixed(1)} days)` });
  }
  let cutoffs: number[];
  if (options.cutoffs !== undefined) {
    if (options.from !== undefined || options.to !== undefined || options.step_ms !== undefined) {
      return err({ field: 'cutoffs', message: 'Give either cutoffs or from/to/step_ms, not both' });
    }
    if (!options.cutoffs.every(isInstant)) return err({ field: 'cutoffs', message: 'Expected epoch milliseconds' });
    cutoffs = [...new Set(options.cutoffs)].sort((a, b) => a - b);
  } else {
    const step = options.step_ms ?? 7 * DAY_MS;
    if (!isInstant(step) || step <= 0) return err({ field: 'step_ms', message: 'Expected a positive whole number of milliseconds' });
    // By default: from one horizon into the history (so the first cutoff has a past), to the last
    // cutoff whose horizon still ends inside it.
    const from = options.from ?? span.first + horizon;
    const to = options.to ?? span.last - horizon;
    if (!isInstant(from)) return err({ field: 'from', message: 'Expected epoch milliseconds' });
    if (!isInstant(to)) return err({ field: 'to', message: 'Expected epoch milliseconds' });
    if (from > to) return err({ field: 'from', message: 'The window is empty: from is after to' });
    if ((to - from) / step >= MAX_CUTOFFS) return err({ field: 'step_ms', message: `At most ${MAX_CUTOFFS} cutoffs` });
    cutoffs = [];
    for (let at = from; at <= to; at += step) cutoffs.push(at);
  }
  if (cutoffs.length === 0) return err({ field: 'cutoffs', message: 'No cutoff given' });
  if (cutoffs.length > MAX_CUTOFFS) return err({ field: 'cutoffs', message: `At most ${MAX_CUTOFFS} cutoffs` });
  const late = cutoffs.find((at) => at + horizon > span.last);
  if (late !== undefined) {
    return err({ field: options.cutoffs !== undefined ? 'cutoffs' : 'to', message: `A cutoff's horizon passes the history's last record (${utcDayOf(span.last)}, ${span.last} ms): its outcome is unknown` });
  }
  return ok(cutoffs);
}

/**
 * Given a history (stored records: events and reported activity, as `tenure export` writes them, in
 * any order, duplicates allowed) and options, returns the backtest report, or the first problem with
 * the options. Each live subscriber is assessed at each cutoff from the records strictly before it
 * (one fold in time order, never a look at later records) and labelled churned when it became
 * churned or refunded, or lapsed, within [cutoff, cutoff + horizon). Pure.
 *
 * @example
 * const report = backtest(records, { horizon_ms: 30 * DAY, step_ms: 7 * DAY });
 * if (report.ok) report.value.pooled.roc_auc; // 0.78
 */
export function backtest(records: readonly StoredRecord[], options: BacktestOptions = {}): Result<BacktestReport, FieldError> {
  return backtestHistory(groupHistory(records), options);
}

/**
 * Given a history grouped by customer (`groupHistory` of records in memory, or a reader that
 * streams customers from disk, so memory holds one customer at a time) and options, returns the
 * same report as `backtest` of the same records. Pure (the history's iterable is walked once).
 *
 * @example
 * const report = backtestHistory(spilledHistory, { horizon_ms: 30 * DAY });
 */
export function backtestHistory(history: GroupedHistory, options: BacktestOptions = {}): Result<BacktestReport, FieldError> {
  const span = history.span;
  const resolved = resolveCutoffs(options, span);
  if (!resolved.ok) return resolved;
  const cutoffs = resolved.value;
  const horizon = options.horizon_ms ?? 30 * DAY_MS;
  const lapse = options.lapse_ms ?? DEFAULT_LAPSE_MS;
  if (!isInstant(lapse) || lapse < 0) return err({ field: 'lapse_ms', message: 'Expected a whole number of milliseconds, 0 or more' });
  const config = options.config ?? DEFAULT_CONFIG;

  const histograms = cutoffs.map(() => emptyHistogram());
  const nonzero: Record<keyof RiskBreakdown, number> = { state: 0, billing_failures: 0, renewals: 0, inactivity: 0, trial_conversion: 0, cancel_reason: 0 };
  let assessed = 0;
  const summary = walkCustomers<number>(history, cutoffs, horizon, lapse, {
    assess: (_index, subscriber, at) => {
      const risk = scoreSubscriber(subscriber, at, config);
      assessed += 1;
      for (const signal of SIGNALS) if (risk.breakdown[signal] !== 0) nonzero[signal] += 1;
      return risk.score;
    },
    label: (index, score, churned) => addSample(histograms[index]!, score, churned),
    ...(options.onProgress === undefined ? {} : { progress: options.onProgress }),
  });

  const pooledHistogram = mergeHistograms(histograms);
  const fitted = calibrate(pooledHistogram, horizon);
  const judged = options.calibration ?? fitted;
  const pooled = evaluateHistogram(pooledHistogram, config.bands, judged);
  const signals = Object.fromEntries(SIGNALS.map((s) => [s, { nonzero: nonzero[s], share: assessed === 0 ? null : nonzero[s] / assessed }])) as SignalCoverage;

  const warnings: string[] = [];
  if (pooled.subscribers === 0) warnings.push('No subscriber was live at any cutoff.');
  if (pooled.too_few_positives) warnings.push(`Only ${pooled.churned} churned subscribers in all (under ${MIN_POSITIVES}): the figures mean little.`);
  if (summary.activity === 0) warnings.push('The history has no app-reported activity: the inactivity signal sees only purchases and product changes.');
  for (const s of SIGNALS) if (s !== 'state' && nonzero[s] === 0 && assessed > 0) warnings.push(`The ${s} signal was 0 for every assessed subscriber: this history gives it no data.`);
  if (options.calibration === undefined) warnings.push('The Brier score is in-sample: the calibration was fitted on these outcomes.');

  return ok({
    horizon_ms: horizon,
    lapse_ms: lapse,
    history: { ...summary, first_at: span!.first, last_at: span!.last },
    cutoffs: cutoffs.map((at, i) => ({ at, metrics: evaluateHistogram(histograms[i]!, config.bands, judged) })),
    pooled,
    signals,
    calibration: fitted,
    brier_calibration: options.calibration === undefined ? 'in_sample' : 'given',
    warnings,
  });
}
