/**
 * The colour that marks a risk in alerts. The colour comes from the band and the band from the
 * configuration (seed defaults: red 80+, orange 60+, yellow 40+, green below), so alerts and the
 * at-risk list always agree.
 */
import { DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import { bandFor } from '../risk/bandFor.js';
import type { RiskBand } from '../risk/risk.js';

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

/** The colour of each band: a total table. */
export const RISK_COLOR_BY_BAND = {
  critical: 'red',
  high: 'orange',
  medium: 'yellow',
  low: 'green',
} as const satisfies Record<RiskBand, RiskColor>;

/**
 * Given a risk band, returns its colour: critical red, high orange, medium yellow, low green. Pure.
 *
 * @example
 * colorForBand(scoreSubscriber(subscriber, now, config).band); // 'orange' for a high risk
 */
export function colorForBand(band: RiskBand): RiskColor {
  return RISK_COLOR_BY_BAND[band];
}

/**
 * Given a risk score and the configuration, returns the colour of its band under that
 * configuration's `bands` (with the defaults: red at or above 80, orange at or above 60, yellow at
 * or above 40, green below). Pure.
 *
 * @example
 * riskColor(80); // 'red'
 * riskColor(80, resolveConfig({ bands: { critical: 90 } })); // 'orange'
 */
export function riskColor(score: number, config: TenureConfig = DEFAULT_CONFIG): RiskColor {
  return colorForBand(bandFor(score, config.bands));
}
