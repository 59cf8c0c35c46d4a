/** Builders of subscriber records and risks for example tests. */
import { DAY_MS } from '../config/defaultConfig.js';
import type { Risk, RiskBand, RiskBreakdown } from '../risk/risk.js';
import type { Subscriber } from '../subscriber/subscriber.js';

/**
 * The instant `makeSubscriber` builds around (2027-01-15T08:00:00Z), for example tests.
 *
 * @example
 * scoreSubscriber(makeSubscriber(), EXAMPLE_NOW).score; // 10: the active base alone
 */
export const EXAMPLE_NOW = 1_800_000_000_000;

/**
 * Given overrides, returns a subscriber: by default active, seen and active at `EXAMPLE_NOW`, first
 * seen 100 days before, no failures, renewals or trial, so its score is the active base alone. Pure.
 *
 * @example
 * const s = makeSubscriber({ state: 'billing_issue', billing_failures: 2 });
 * scoreSubscriber(s, EXAMPLE_NOW).score; // 100
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
    last_activity_at: EXAMPLE_NOW,
    first_event_at: EXAMPLE_NOW - 100 * DAY_MS,
    last_event_at: EXAMPLE_NOW,
    event_count: 1,
    ...overrides,
  };
}

/**
 * Given a score, a band and part of a breakdown, returns a risk whose breakdown puts the rest of the
 * score on the state signal's place (the whole score unless overridden). Pure.
 *
 * @example
 * recommend(makeSubscriber({ state: 'churned' }), makeRisk(95, 'critical'), EXAMPLE_NOW)[0]?.action; // 'winback'
 */
export function makeRisk(score: number, band: RiskBand, breakdown: Partial<RiskBreakdown> = {}): Risk {
  return {
    score,
    band,
    breakdown: { state: score, billing_failures: 0, renewals: 0, inactivity: 0, trial_conversion: 0, cancel_reason: 0, ...breakdown },
  };
}
