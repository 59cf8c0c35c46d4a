/** The mapping from a risk score to its band. */
import { DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import type { RiskBand } from './risk.js';

/**
 * Given a score and the lowest score of each band, returns the band the score falls in:
 * `critical` at or above `bands.critical`, then `high`, then `medium`, else `low`. Pure.
 *
 * @example
 * bandFor(82); // 'critical'
 * bandFor(39); // 'low'
 */
export function bandFor(score: number, bands: TenureConfig['bands'] = DEFAULT_CONFIG.bands): RiskBand {
  if (score >= bands.critical) return 'critical';
  if (score >= bands.high) return 'high';
  if (score >= bands.medium) return 'medium';
  return 'low';
}
