/**
 * From score to churn probability: isotonic regression (pool adjacent violators) over the counts
 * per score, so the probability never falls as the score rises, by construction.
 */
import { MAX_SCORE, type ScoreHistogram } from './scoreHistogram.js';

/**
 * A calibration: `probabilities[s]` is the chance that a subscriber scoring `s` churns within
 * `horizon_ms`, non-decreasing in `s`. Scores no sample had take the fitted value of the nearest
 * lower score (or, below the lowest, of the lowest).
 */
export interface Calibration {
  horizon_ms: number;
  /** How many samples the fit saw, and how many churned. */
  samples: number;
  positives: number;
  probabilities: number[];
}

/**
 * Given a histogram of outcomes per score and the horizon they were labelled with, returns the
 * isotonic calibration: the non-decreasing step function of score that fits the observed churn
 * rates best in squared error (pool adjacent violators, weighted by the counts). With no samples
 * every probability is 0. Pure.
 *
 * @example
 * const calibration = calibrate(report.pooled.histogram, report.horizon_ms);
 * churnProbability(calibration, 72); // 0.31
 */
export function calibrate(histogram: ScoreHistogram, horizonMs: number): Calibration {
  // Blocks of pooled scores: [first score, last score, weight, churned].
  const blocks: { first: number; last: number; weight: number; churned: number }[] = [];
  let samples = 0;
  let positives = 0;
  for (let s = 0; s <= MAX_SCORE; s += 1) {
    const churned = histogram.churned[s]!;
    const weight = churned + histogram.stayed[s]!;
    samples += weight;
    positives += churned;
    if (weight === 0) continue;
    blocks.push({ first: s, last: s, weight, churned });
    // Pool while the last block's rate is below the one before it.
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1]!;
      const a = blocks[blocks.length - 2]!;
      if (a.churned * b.weight <= b.churned * a.weight) break;
      blocks.pop();
      blocks[blocks.length - 1] = { first: a.first, last: b.last, weight: a.weight + b.weight, churned: a.churned + b.churned };
    }
  }
  const probabilities = new Array<number>(MAX_SCORE + 1).fill(0);
  if (blocks.length > 0) {
    let b = 0;
    for (let s = 0; s <= MAX_SCORE; s += 1) {
      while (b + 1 < blocks.length && blocks[b + 1]!.first <= s) b += 1;
      const block = blocks[b]!;
      probabilities[s] = block.churned / block.weight;
    }
  }
  return { horizon_ms: horizonMs, samples, positives, probabilities };
}

/**
 * Given a calibration and a score, returns the churn probability within the calibration's horizon
 * (the score rounded and clamped to 0..100). Pure.
 *
 * @example
 * churnProbability(calibration, 72); // 0.31
 */
export function churnProbability(calibration: Calibration, score: number): number {
  const s = score <= 0 ? 0 : score >= MAX_SCORE ? MAX_SCORE : Math.round(score);
  return calibration.probabilities[s] ?? 0;
}

/**
 * Given a histogram and a calibration, returns the Brier score of the calibrated probabilities: the
 * mean squared difference between probability and outcome (0 perfect; the base rate × (1 − base
 * rate) for a constant guess of the base rate); null with no samples. Pure.
 *
 * @example
 * brierScore(holdout.histogram, calibration); // 0.082
 */
export function brierScore(histogram: ScoreHistogram, calibration: Calibration): number | null {
  let total = 0;
  let n = 0;
  for (let s = 0; s <= MAX_SCORE; s += 1) {
    const p = calibration.probabilities[s] ?? 0;
    const churned = histogram.churned[s]!;
    const stayed = histogram.stayed[s]!;
    total += churned * (1 - p) * (1 - p) + stayed * p * p;
    n += churned + stayed;
  }
  return n === 0 ? null : total / n;
}
