/**
 * How well a score ranks churners above stayers: ROC AUC and PR AUC, exact, from the counts per
 * score. Tied scores are one threshold: a churner and a stayer with the same score count half a
 * correctly ordered pair (ROC), and a group of tied samples enters the precision-recall curve at once.
 */
import { MAX_SCORE, type ScoreHistogram } from './scoreHistogram.js';

/**
 * Given a histogram, returns the ROC AUC: the probability that a random churner scores above a
 * random stayer, ties counting one half (the Mann-Whitney U statistic over P × N); null without at
 * least one churner and one stayer. Pure.
 *
 * @example
 * rocAuc(histogram); // 0.74
 */
export function rocAuc(histogram: ScoreHistogram): number | null {
  let positives = 0;
  let negatives = 0;
  let pairs = 0;
  // Scores ascending: every stayer seen so far scores below the churners of this score.
  for (let s = 0; s <= MAX_SCORE; s += 1) {
    const p = histogram.churned[s]!;
    const n = histogram.stayed[s]!;
    pairs += p * (negatives + n / 2);
    positives += p;
    negatives += n;
  }
  if (positives === 0 || negatives === 0) return null;
  return pairs / (positives * negatives);
}

/**
 * Given a histogram, returns the PR AUC as average precision: flagging scores from the highest
 * down, one threshold per distinct score, the sum over thresholds of (recall gained) × (precision
 * there); null without a churner. A perfect ranking gives 1; a random one about the base rate. Pure.
 *
 * @example
 * prAuc(histogram); // 0.41
 */
export function prAuc(histogram: ScoreHistogram): number | null {
  let total = 0;
  for (let s = 0; s <= MAX_SCORE; s += 1) total += histogram.churned[s]!;
  if (total === 0) return null;
  let truePositives = 0;
  let flagged = 0;
  let area = 0;
  for (let s = MAX_SCORE; s >= 0; s -= 1) {
    const p = histogram.churned[s]!;
    flagged += p + histogram.stayed[s]!;
    if (p === 0) continue;
    truePositives += p;
    area += (p / total) * (truePositives / flagged);
  }
  return area;
}
