/** The shape of a risk assessment. */

export const RISK_BANDS = ['critical', 'high', 'medium', 'low'] as const;
export type RiskBand = (typeof RISK_BANDS)[number];

/** One integer per signal; their sum, clamped to 0..100, is the score. */
export interface RiskBreakdown {
  state: number;
  billing_failures: number;
  renewals: number;
  inactivity: number;
  trial_conversion: number;
  /** The reason of a pending cancellation: a price increase adds points. */
  cancel_reason: number;
}

export interface Risk {
  /** 0..100 */
  score: number;
  band: RiskBand;
  breakdown: RiskBreakdown;
}
