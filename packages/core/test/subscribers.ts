// Builders of subscriber records and risks for example tests.
import type { Risk, RiskBand, RiskBreakdown, Subscriber } from '../src/index.js';

/** A fixed evaluation time for example tests. */
export const NOW = 1_800_000_000_000;
export const DAY = 86_400_000;

/**
 * An active subscriber seen `NOW`: no failures, no renewals, no trial, active right now, so its
 * score is the active base alone. Override any field.
 */
export function makeSubscriber(overrides: Partial<Subscriber> = {}): Subscriber {
  return {
    customer_id: 'user_1',
    state: 'active',
    state_key: null,
    product_id: 'pro_monthly',
    product_key: null,
    period_ends_at: null,
    period_key: null,
    billing_failures: 0,
    renewals: 0,
    trial_started_at: null,
    trial_ends_at: null,
    trial_key: null,
    trial_converted_at: null,
    conversion_key: null,
    last_activity_at: NOW,
    first_event_at: NOW - 100 * DAY,
    last_event_at: NOW,
    event_count: 1,
    ...overrides,
  };
}

/** A risk with the given score and band; the breakdown puts the whole score on the state signal. */
export function makeRisk(score: number, band: RiskBand, breakdown: Partial<RiskBreakdown> = {}): Risk {
  return {
    score,
    band,
    breakdown: { state: score, billing_failures: 0, renewals: 0, inactivity: 0, trial_conversion: 0, ...breakdown },
  };
}
