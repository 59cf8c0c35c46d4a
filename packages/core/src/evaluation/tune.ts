/**
 * Tuning the score on a user's own history, proven on a later holdout. Samples (a subscriber as of
 * a cutoff, and its outcome) are collected once by `walkCutoffs`, each kept only as the features the
 * score reads and counted with the samples that share them (`riskFeatures.ts`: memory bounded by
 * the distinct feature rows, not by customers); a seeded coordinate search then rescores the rows
 * under candidate weights. The split is by time: training cutoffs end, horizon
 * included, before the first holdout cutoff, so no training label reads the holdout period.
 */
import { DAY_MS, DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import { err, ok, type FieldError, type Result } from '../result.js';
import type { StoredRecord } from '../store/subscriberStore.js';
import { SUBSCRIBER_STATES } from '../subscriber/subscriber.js';
import { resolveCutoffs, type BacktestOptions } from './backtest.js';
import { DEFAULT_LAPSE_MS } from './churnOutcome.js';
import { rocAuc } from './rankMetrics.js';
import { addFeatureCounts, countFeatures, riskFeatures, type FeatureCounts, type RiskFeatures } from './riskFeatures.js';
import { emptyHistogram, histogramTotals, type ScoreHistogram } from './scoreHistogram.js';
import { seededRandom } from './seededRandom.js';
import { groupHistory, walkCustomers, type GroupedHistory } from './walkCutoffs.js';

export interface TuneOptions extends Omit<BacktestOptions, 'calibration'> {
  /** The share of cutoffs (the latest) held out, 0 < share < 1. Default 0.25. */
  holdout?: number;
  /** Seeds the search's order; the same seed and history give the same config. Default 1. */
  seed?: number;
  /** Coordinate-search rounds. Default 4. */
  rounds?: number;
}

/** One config's figures on one split. */
export interface SplitScore {
  subscribers: number;
  churned: number;
  roc_auc: number | null;
}

export interface TuneReport {
  /** The config to use: the tuned one, or the starting one when tuning did not improve the holdout. */
  config: TenureConfig;
  /** The best weights the search found on the training cutoffs, kept or not (`config` when improved). */
  candidate: TenureConfig;
  improved: boolean;
  /** Why the starting config was kept, when it was. */
  reason: string | null;
  training: { cutoffs: number[]; start: SplitScore; tuned: SplitScore };
  holdout: { cutoffs: number[]; start: SplitScore; tuned: SplitScore };
  /** Candidate configs scored. */
  evaluated: number;
}

/**
 * A weight the search may move, with its allowed range and step. No knob moves what `riskFeatures`
 * reads (the trial fractions, `slow_conversion_days`): the features of a sample are read once.
 */
interface Knob {
  get: (c: TenureConfig) => number;
  set: (c: TenureConfig, v: number) => TenureConfig;
  min: number;
  max: number;
  step: number;
}

const riskKnob = (key: Exclude<keyof TenureConfig['risk'], 'state_base' | 'trial_halfway_fraction' | 'trial_late_fraction'>, min: number, max: number, step: number): Knob => ({
  get: (c) => c.risk[key],
  set: (c, v) => ({ ...c, risk: { ...c.risk, [key]: v } }),
  min,
  max,
  step,
});

export const KNOBS: Knob[] = [
  ...SUBSCRIBER_STATES.map(
    (state): Knob => ({
      get: (c) => c.risk.state_base[state],
      set: (c, v) => ({ ...c, risk: { ...c.risk, state_base: { ...c.risk.state_base, [state]: v } } }),
      min: 0,
      max: 100,
      step: 5,
    }),
  ),
  riskKnob('billing_failure_points', 0, 30, 5),
  riskKnob('billing_failure_cap', 0, 60, 10),
  riskKnob('renewal_points', -20, 0, 1),
  riskKnob('renewal_cap', -40, 0, 5),
  riskKnob('inactivity_grace_days', 0, 30, 1),
  riskKnob('inactivity_days_per_point', 1, 10, 1),
  riskKnob('inactivity_cap', 0, 40, 5),
  riskKnob('trial_halfway_points', 0, 30, 5),
  riskKnob('trial_late_points', 0, 40, 5),
  riskKnob('slow_conversion_points', 0, 20, 5),
  riskKnob('price_increase_points', 0, 30, 5),
];

function scoreSplit(samples: FeatureCounts, config: TenureConfig): SplitScore {
  const histogram: ScoreHistogram = emptyHistogram();
  addFeatureCounts(histogram, samples, config);
  const { samples: subscribers, positives } = histogramTotals(histogram);
  return { subscribers, churned: positives, roc_auc: rocAuc(histogram) };
}

const better = (a: number | null, b: number | null) => a !== null && (b === null || a > b + 1e-12);

/**
 * Given a history and options, returns a tuned configuration with its figures on the training and
 * holdout cutoffs, or the first problem with the options. The latest `holdout` share of cutoffs is
 * held out; training cutoffs are those whose horizon ends before the first holdout cutoff. A seeded
 * coordinate search moves one weight at a time (state bases, billing failure, renewal, inactivity,
 * trial and price-increase points) by its step while the training ROC AUC improves. It never
 * returns a config that does worse than the starting one on the holdout: then it returns the
 * starting config, `improved: false` and the reason. Band thresholds are kept (the score's ranking
 * decides AUC; bands are where a team draws its lines, read off the threshold table). Deterministic
 * for a seed. Pure.
 *
 * @example
 * const tuned = tune(records, { horizon_ms: 30 * DAY, step_ms: 7 * DAY, holdout: 0.25, seed: 1 });
 * if (tuned.ok) tuned.value.holdout.tuned.roc_auc;
 */
export function tune(records: readonly StoredRecord[], options: TuneOptions = {}): Result<TuneReport, FieldError> {
  return tuneHistory(groupHistory(records), options);
}

/**
 * As `tune`, on a history grouped by customer (`groupHistory`, or a reader that streams it from
 * disk, as `tenure tune` does on a large file): the history is walked once, one customer at a
 * time, and only the samples of the training and holdout cutoffs are kept. Same report as `tune`
 * on the same records. Pure.
 *
 * @example
 * const tuned = tuneHistory(spilledHistory, { horizon_ms: 30 * DAY, step_ms: 7 * DAY });
 */
export function tuneHistory(history: GroupedHistory, options: TuneOptions = {}): Result<TuneReport, FieldError> {
  const holdoutShare = options.holdout ?? 0.25;
  if (!(holdoutShare > 0 && holdoutShare < 1)) return err({ field: 'holdout', message: 'Expected a share between 0 and 1, e.g. 0.25' });
  const rounds = options.rounds ?? 4;
  if (!Number.isSafeInteger(rounds) || rounds < 1 || rounds > 50) return err({ field: 'rounds', message: 'Expected a whole number from 1 to 50' });
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) return err({ field: 'seed', message: 'Expected a whole number' });
  const resolved = resolveCutoffs(options, history.span);
  if (!resolved.ok) return resolved;
  const cutoffs = resolved.value;
  const horizon = options.horizon_ms ?? 30 * DAY_MS;
  const holdoutCount = Math.max(1, Math.round(cutoffs.length * holdoutShare));
  const holdoutCutoffs = cutoffs.slice(cutoffs.length - holdoutCount);
  const holdoutStart = holdoutCutoffs[0]!;
  // No training label may read the holdout period.
  const trainingCutoffs = cutoffs.slice(0, cutoffs.length - holdoutCount).filter((at) => at + horizon <= holdoutStart);
  if (trainingCutoffs.length === 0) {
    return err({ field: 'holdout', message: 'No training cutoff ends (horizon included) before the holdout: use more cutoffs, a shorter step or horizon, or a smaller holdout' });
  }

  const start = options.config ?? DEFAULT_CONFIG;
  const training: FeatureCounts = new Map();
  const holdout: FeatureCounts = new Map();
  const isHoldout = new Set(holdoutCutoffs.map((_, i) => cutoffs.length - holdoutCount + i));
  const isTraining = new Set(trainingCutoffs.map((at) => cutoffs.indexOf(at)));
  // Progress: the walk (its share of customers walked, in hundredths), then one step per knob
  // visited in each round (a round that moves nothing ends the search).
  const walkSteps = 100;
  const total = walkSteps + rounds * KNOBS.length;
  const onProgress = options.onProgress;
  walkCustomers<RiskFeatures | null>(history, cutoffs, horizon, options.lapse_ms ?? DEFAULT_LAPSE_MS, {
    assess: (index, subscriber, at) => (isHoldout.has(index) || isTraining.has(index) ? riskFeatures(subscriber, at, start) : null),
    label: (index, features, churned) => {
      if (features === null) return;
      countFeatures(isHoldout.has(index) ? holdout : training, features, churned);
    },
    ...(onProgress === undefined ? {} : { progress: (done: number, customers: number) => onProgress(customers === 0 ? walkSteps : Math.floor((done / customers) * walkSteps), total) }),
  });

  const random = seededRandom(seed);
  let best = start;
  let bestScore = scoreSplit(training, start).roc_auc;
  let evaluated = 1;
  for (let round = 0; round < rounds; round += 1) {
    let moved = false;
    // A seeded order of the knobs each round (Fisher-Yates).
    const order = KNOBS.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const [visited, k] of order.entries()) {
      onProgress?.(walkSteps + round * KNOBS.length + visited, total);
      const knob = KNOBS[k]!;
      for (const direction of [1, -1]) {
        // Keep stepping while it helps.
        for (;;) {
          const value = knob.get(best) + direction * knob.step;
          if (value < knob.min || value > knob.max) break;
          const candidate = knob.set(best, value);
          const score = scoreSplit(training, candidate).roc_auc;
          evaluated += 1;
          if (!better(score, bestScore)) break;
          best = candidate;
          bestScore = score;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  onProgress?.(total, total);

  const startHoldout = scoreSplit(holdout, start);
  const tunedHoldout = scoreSplit(holdout, best);
  const report = (config: TenureConfig, improved: boolean, reason: string | null): TuneReport => ({
    config,
    candidate: best,
    improved,
    reason,
    training: { cutoffs: trainingCutoffs, start: scoreSplit(training, start), tuned: scoreSplit(training, best) },
    holdout: { cutoffs: holdoutCutoffs, start: startHoldout, tuned: tunedHoldout },
    evaluated,
  });
  if (best === start) return ok(report(start, false, 'No weight change improved the training ROC AUC.'));
  if (!better(tunedHoldout.roc_auc, startHoldout.roc_auc)) {
    return ok(report(start, false, 'The tuned weights did not beat the starting config on the holdout; the starting config is kept.'));
  }
  return ok(report(best, true, null));
}
