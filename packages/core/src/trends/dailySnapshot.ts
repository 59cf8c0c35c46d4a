/**
 * One day of the dashboard's trends: subscribers and monthly value per risk band, and the at-risk
 * total, as they stood at one instant of that UTC day. The service's sweep records one per day
 * from the store's per-(state, score) sums (`source: 'sweep'`, the day's latest record wins); days
 * before the first record can be computed once from the stored events (`snapshotsFromEvents`,
 * `source: 'events'`).
 */
import { RISK_BANDS, type RiskBand } from '../risk/risk.js';
import type { UtcDay } from './utcDay.js';

/** Subscribers and their summed monthly value (USD, summed in whole cents). */
export interface SnapshotTotal {
  subscribers: number;
  monthly_value_usd: number;
}

/** Where a snapshot's figures come from: the sweep's totals at `at`, or a fold of the stored events up to `at`. */
export const SNAPSHOT_SOURCES = ['sweep', 'events'] as const;
export type SnapshotSource = (typeof SNAPSHOT_SOURCES)[number];

/** One UTC day's figures, exact at the instant `at` (the sweep's latest record of that day, or the day's last millisecond for a fold). */
export interface DailySnapshot {
  day: UtcDay;
  at: number;
  source: SnapshotSource;
  by_band: Record<RiskBand, SnapshotTotal>;
  /** Subscribers scoring `min_score` (the configured `bands.high`) or more. */
  at_risk: SnapshotTotal & { min_score: number };
}

/**
 * Given a day, an instant, a source, per-band totals and the at-risk total, returns the snapshot
 * with every band present (0 for a band not given). Pure.
 *
 * @example
 * dailySnapshotOf('2026-11-26', now, 'sweep', { critical: { subscribers: 2, monthly_value_usd: 19.98 } }, { min_score: 60, subscribers: 2, monthly_value_usd: 19.98 });
 */
export function dailySnapshotOf(
  day: UtcDay,
  at: number,
  source: SnapshotSource,
  byBand: Partial<Record<RiskBand, SnapshotTotal>>,
  atRisk: DailySnapshot['at_risk'],
): DailySnapshot {
  const by_band = Object.fromEntries(RISK_BANDS.map((band) => [band, byBand[band] ?? { subscribers: 0, monthly_value_usd: 0 }])) as Record<RiskBand, SnapshotTotal>;
  return { day, at, source, by_band, at_risk: atRisk };
}

const addTotals = (a: SnapshotTotal, b: SnapshotTotal): SnapshotTotal => ({
  subscribers: a.subscribers + b.subscribers,
  monthly_value_usd: (Math.round(a.monthly_value_usd * 100) + Math.round(b.monthly_value_usd * 100)) / 100,
});

/**
 * Given two snapshots of one day over disjoint sets of customers (e.g. `snapshotsFromEvents` of two
 * batches of customers), returns the snapshot of both: counts and values added (in whole cents),
 * the day, instant, source and minimum score of `a`. Pure.
 *
 * @example
 * mergeSnapshots(firstHalf, secondHalf).at_risk.subscribers; // first + second
 */
export function mergeSnapshots(a: DailySnapshot, b: DailySnapshot): DailySnapshot {
  const byBand = Object.fromEntries(RISK_BANDS.map((band) => [band, addTotals(a.by_band[band], b.by_band[band])]));
  return dailySnapshotOf(a.day, a.at, a.source, byBand, { min_score: a.at_risk.min_score, ...addTotals(a.at_risk, b.at_risk) });
}
