/**
 * The points of the report's curves, from a histogram of outcomes per score: the ROC and PR curves
 * (one point per distinct score, flagging from the highest down) and the calibration per score
 * decile. Pure; the terminal table and the HTML report draw the same numbers.
 */
import { churnProbability, type Calibration, type CalibrationRow, type EvaluationMetrics, type ScoreHistogram } from '@tenure/core';

/** A point of a curve, both coordinates in 0..1, and the lowest score flagged to reach it. */
export interface CurvePoint {
  x: number;
  y: number;
  score: number | null;
}

const SCORES = 100;

/** The scores some sample has, highest first. */
function scoresPresent(histogram: ScoreHistogram): number[] {
  const out: number[] = [];
  for (let s = SCORES; s >= 0; s -= 1) if (histogram.churned[s]! + histogram.stayed[s]! > 0) out.push(s);
  return out;
}

/**
 * Given a histogram, returns the ROC curve: (false positive rate, true positive rate) from (0, 0)
 * (nothing flagged), then one point per distinct score flagging it and every higher one, ending at
 * (1, 1): as many points as distinct scores, plus one. Empty without both churners and stayers. Pure.
 *
 * @example
 * rocPoints(report.pooled.histogram).length; // distinct scores + 1
 */
export function rocPoints(histogram: ScoreHistogram): CurvePoint[] {
  const positives = histogram.churned.reduce((a, b) => a + b, 0);
  const negatives = histogram.stayed.reduce((a, b) => a + b, 0);
  if (positives === 0 || negatives === 0) return [];
  const points: CurvePoint[] = [{ x: 0, y: 0, score: null }];
  let tp = 0;
  let fp = 0;
  for (const s of scoresPresent(histogram)) {
    tp += histogram.churned[s]!;
    fp += histogram.stayed[s]!;
    points.push({ x: fp / negatives, y: tp / positives, score: s });
  }
  return points;
}

/**
 * Given a histogram, returns the precision-recall curve: (recall, precision), one point per
 * distinct score flagging it and every higher one. Empty without churners. Pure.
 *
 * @example
 * prPoints(report.pooled.histogram)[0]; // the top score's recall and precision
 */
export function prPoints(histogram: ScoreHistogram): CurvePoint[] {
  const positives = histogram.churned.reduce((a, b) => a + b, 0);
  if (positives === 0) return [];
  const points: CurvePoint[] = [];
  let tp = 0;
  let flagged = 0;
  for (const s of scoresPresent(histogram)) {
    tp += histogram.churned[s]!;
    flagged += histogram.churned[s]! + histogram.stayed[s]!;
    points.push({ x: tp / positives, y: tp / flagged, score: s });
  }
  return points;
}

/** One score decile of the core's calibration table, with the calibration's mean probability over its samples. */
export type CalibrationPoint = CalibrationRow & { calibrated: number | null };

/**
 * Given a set of figures and a calibration, returns its calibration table (per score decile 0–9,
 * …, 90–100: the observed churn rate) with the calibration's mean probability over the same
 * samples: a calibrated score has the two close. Pure.
 *
 * @example
 * calibrationPoints(report.pooled, report.calibration)[9]; // { from_score: 90, to_score: 100, churn_rate: 0.62, calibrated: 0.6, ... }
 */
export function calibrationPoints(metrics: Pick<EvaluationMetrics, 'histogram' | 'calibration_table'>, calibration: Calibration): CalibrationPoint[] {
  const { histogram } = metrics;
  return metrics.calibration_table.map((row) => {
    let probability = 0;
    for (let s = row.from_score; s <= row.to_score; s += 1) probability += (histogram.churned[s]! + histogram.stayed[s]!) * churnProbability(calibration, s);
    return { ...row, calibrated: row.subscribers === 0 ? null : probability / row.subscribers };
  });
}
