/** Turning the at-risk filters into one score range, so the band filter is a range of the score index. */
import type { RiskBand, TenureConfig } from '@tenure/core';

/**
 * Given a band (or none), the minimum score and the band thresholds, returns the scores a row may
 * have: `minScore <= score < maxScore` (maxScore null: no upper bound). Mirrors `bandFor`, which
 * tests `critical`, then `high`, then `medium`, so a band's upper bound is the lowest threshold
 * tested before it. Pure.
 *
 * @example
 * bandRange('high', 0, { critical: 80, high: 60, medium: 40 }); // { minScore: 60, maxScore: 80 }
 */
export function bandRange(
  band: RiskBand | undefined,
  minScore: number,
  bands: TenureConfig['bands'],
): { minScore: number; maxScore: number | null } {
  switch (band) {
    case undefined:
      return { minScore, maxScore: null };
    case 'critical':
      return { minScore: Math.max(minScore, bands.critical), maxScore: null };
    case 'high':
      return { minScore: Math.max(minScore, bands.high), maxScore: bands.critical };
    case 'medium':
      return { minScore: Math.max(minScore, bands.medium), maxScore: Math.min(bands.high, bands.critical) };
    case 'low':
      return { minScore, maxScore: Math.min(bands.medium, bands.high, bands.critical) };
  }
}
