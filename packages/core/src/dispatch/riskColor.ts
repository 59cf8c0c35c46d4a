/** The colour that marks a risk score in alerts (seed: red 80+, orange 60+, yellow 40+, green below). */
import { DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';

export const RISK_COLORS = ['red', 'orange', 'yellow', 'green'] as const;
export type RiskColor = (typeof RISK_COLORS)[number];

/** Hex colour of each risk colour, for the colour bar of a Slack attachment and for email. */
export const RISK_COLOR_HEX = {
  red: '#D72B3F',
  orange: '#F2952F',
  yellow: '#ECB22E',
  green: '#2EB67D',
} as const satisfies Record<RiskColor, `#${string}`>;

/** Slack emoji shortcode of each risk colour. */
export const RISK_COLOR_EMOJI = {
  red: ':red_circle:',
  orange: ':large_orange_circle:',
  yellow: ':large_yellow_circle:',
  green: ':large_green_circle:',
} as const satisfies Record<RiskColor, string>;

/**
 * Given a risk score, returns its colour: red at or above `bands.critical` (80), orange at or above
 * `bands.high` (60), yellow at or above `bands.medium` (40), green below. Pure.
 *
 * @example
 * riskColor(80); // 'red'
 * riskColor(39); // 'green'
 */
export function riskColor(score: number, bands: TenureConfig['bands'] = DEFAULT_CONFIG.bands): RiskColor {
  if (score >= bands.critical) return 'red';
  if (score >= bands.high) return 'orange';
  if (score >= bands.medium) return 'yellow';
  return 'green';
}
