/**
 * What a score threshold and a band would have caught: precision, recall and lift, and the
 * observed churn rate per score decile (the calibration table), from the counts per score.
 */
import type { TenureConfig } from '../config/defaultConfig.js';
import { bandFor } from '../risk/bandFor.js';
import { RISK_BANDS, type RiskBand } from '../risk/risk.js';
import { histogramTotals, MAX_SCORE, type ScoreHistogram } from './scoreHistogram.js';

/** Flagging every subscriber scoring `score` or more. */
export interface ThresholdRow {
  score: number;
  flagged: number;
  churned: number;
  /** churned / flagged; null when nothing is flagged. */
  precision: number | null;
  /** churned / all churners; null without churners. */
  recall: number | null;
  /** precision / the base rate; null when either is undefined or the base rate is 0. */
  lift: number | null;
}

/** The subscribers of one band. */
export interface BandRow {
  band: RiskBand;
  subscribers: number;
  churned: number;
  /** The band's own churn rate: its precision when alerting on it. */
  churn_rate: number | null;
  /** The share of all churners in this band: its recall. */
  share_of_churners: number | null;
  lift: number | null;
}

/** One score decile (0–9, 10–19, …, 90–100). */
export interface CalibrationRow {
  from_score: number;
  to_score: number;
  subscribers: number;
  churned: number;
  mean_score: number | null;
  /** Observed churn rate within the horizon. */
  churn_rate: number | null;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);
const liftOf = (rate: number | null, base: number | null): number | null => (rate === null || base === null || base === 0 ? null : rate / base);

/**
 * Given a histogram, returns one row per threshold 0..100 (flag score ≥ threshold): flagged,
 * churned, precision, recall and lift over the base rate. Pure.
 *
 * @example
 * thresholdTable(histogram)[60]?.precision; // churn rate of subscribers scoring 60 or more
 */
export function thresholdTable(histogram: ScoreHistogram): ThresholdRow[] {
  const { samples, positives } = histogramTotals(histogram);
  const base = ratio(positives, samples);
  const rows: ThresholdRow[] = new Array<ThresholdRow>(MAX_SCORE + 1);
  let flagged = 0;
  let churned = 0;
  for (let s = MAX_SCORE; s >= 0; s -= 1) {
    flagged += histogram.churned[s]! + histogram.stayed[s]!;
    churned += histogram.churned[s]!;
    const precision = ratio(churned, flagged);
    rows[s] = { score: s, flagged, churned, precision, recall: ratio(churned, positives), lift: liftOf(precision, base) };
  }
  return rows;
}

/**
 * Given a histogram and the band thresholds, returns one row per band (critical first): its
 * subscribers, churners, churn rate (precision), share of all churners (recall) and lift. Pure.
 *
 * @example
 * bandTable(histogram, config.bands)[0]?.lift; // how much likelier a critical subscriber churns
 */
export function bandTable(histogram: ScoreHistogram, bands: TenureConfig['bands']): BandRow[] {
  const { samples, positives } = histogramTotals(histogram);
  const base = ratio(positives, samples);
  const counts = new Map<RiskBand, { subscribers: number; churned: number }>(RISK_BANDS.map((band) => [band, { subscribers: 0, churned: 0 }]));
  for (let s = 0; s <= MAX_SCORE; s += 1) {
    const row = counts.get(bandFor(s, bands))!;
    row.subscribers += histogram.churned[s]! + histogram.stayed[s]!;
    row.churned += histogram.churned[s]!;
  }
  return RISK_BANDS.map((band) => {
    const { subscribers, churned } = counts.get(band)!;
    const rate = ratio(churned, subscribers);
    return { band, subscribers, churned, churn_rate: rate, share_of_churners: ratio(churned, positives), lift: liftOf(rate, base) };
  });
}

/**
 * Given a histogram, returns the observed churn rate per score decile (0–9, …, 80–89, 90–100) with
 * its mean score: the calibration table. Pure.
 *
 * @example
 * calibrationTable(histogram)[9]?.churn_rate; // how many scoring 90+ churned
 */
export function calibrationTable(histogram: ScoreHistogram): CalibrationRow[] {
  const rows: CalibrationRow[] = [];
  for (let decile = 0; decile < 10; decile += 1) {
    const from = decile * 10;
    const to = decile === 9 ? MAX_SCORE : from + 9;
    let subscribers = 0;
    let churned = 0;
    let scoreSum = 0;
    for (let s = from; s <= to; s += 1) {
      const n = histogram.churned[s]! + histogram.stayed[s]!;
      subscribers += n;
      churned += histogram.churned[s]!;
      scoreSum += n * s;
    }
    rows.push({ from_score: from, to_score: to, subscribers, churned, mean_score: ratio(scoreSum, subscribers), churn_rate: ratio(churned, subscribers) });
  }
  return rows;
}
