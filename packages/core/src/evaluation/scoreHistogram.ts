/**
 * Evaluation samples kept as counts per score. Scores are integers 0..100, so any number of
 * (score, churned) samples folds into 2 × 101 counts, and every metric of a backtest (ROC and PR
 * AUC, thresholds, bands, calibration, Brier) is computed exactly from them, ties included.
 */

/** The highest score; scores are integers 0..`MAX_SCORE`. */
export const MAX_SCORE = 100;

/** Counts of samples per score: `churned[s]` churned within the horizon, `stayed[s]` did not. */
export interface ScoreHistogram {
  churned: number[];
  stayed: number[];
}

/**
 * Returns a histogram with no samples. Pure.
 *
 * @example
 * const histogram = emptyHistogram();
 */
export function emptyHistogram(): ScoreHistogram {
  return { churned: new Array<number>(MAX_SCORE + 1).fill(0), stayed: new Array<number>(MAX_SCORE + 1).fill(0) };
}

/**
 * Given a histogram, a score and an outcome, counts the sample in place (a score outside 0..100 or
 * not an integer is clamped and rounded, as `scoreSubscriber` never returns one). Mutates only the
 * histogram it is given, which the caller owns.
 *
 * @example
 * addSample(histogram, 72, true);
 */
export function addSample(histogram: ScoreHistogram, score: number, churned: boolean): void {
  const s = score <= 0 ? 0 : score >= MAX_SCORE ? MAX_SCORE : Math.round(score);
  if (churned) histogram.churned[s]! += 1;
  else histogram.stayed[s]! += 1;
}

/**
 * Given histograms, returns one holding all their samples. Pure.
 *
 * @example
 * const pooled = mergeHistograms(perCutoff);
 */
export function mergeHistograms(histograms: readonly ScoreHistogram[]): ScoreHistogram {
  const merged = emptyHistogram();
  for (const h of histograms) {
    for (let s = 0; s <= MAX_SCORE; s += 1) {
      merged.churned[s]! += h.churned[s]!;
      merged.stayed[s]! += h.stayed[s]!;
    }
  }
  return merged;
}

/** Total samples and positives (churned) of a histogram. Pure. */
export function histogramTotals(histogram: ScoreHistogram): { samples: number; positives: number } {
  let positives = 0;
  let negatives = 0;
  for (let s = 0; s <= MAX_SCORE; s += 1) {
    positives += histogram.churned[s]!;
    negatives += histogram.stayed[s]!;
  }
  return { samples: positives + negatives, positives };
}
