/**
 * The rule-based risk scorer: one integer per signal, summed and clamped to 0..100.
 *
 * This is on the hot path of event ingestion (apply + score at millions of events per second), so
 * it allocates only the result and its breakdown: no arrays, closures or pattern matching per call.
 */
import { DAY_MS, DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import { assessedAt } from '../subscriber/promotionalAccess.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { bandFor } from './bandFor.js';
import { inactiveDays, inactivityPoints } from './inactiveDays.js';
import type { Risk } from './risk.js';
import { stateBase } from './stateBase.js';

const MIN_SCORE = 0;
const MAX_SCORE = 100;

/**
 * Given a subscriber, the current time (epoch ms) and a configuration, returns its risk: the score
 * (integer, 0..100), its band and the breakdown per signal, whose sum clamped to 0..100 is the score.
 * Signals: state base; +10 per billing failure capped at +30; -5 per renewal capped at -20; after 7
 * days of inactivity +1 per 2 full days, capped at +15; a running trial +5 from halfway and +10 from
 * 80 % of its length; +5 when a trial took more than 7 days to convert; +10 for a pending
 * cancellation because of a price increase (defaults of `DEFAULT_CONFIG`).
 * Pure.
 *
 * @example
 * const risk = scoreSubscriber({ ...subscriber, state: 'billing_issue', billing_failures: 1 }, now);
 * risk.breakdown.billing_failures; // 10
 */
export function scoreSubscriber(record: Subscriber, now: number, config: TenureConfig = DEFAULT_CONFIG): Risk {
  // A churned customer given access (a promotional grant) is scored as what it is now (`assessedAt`).
  const subscriber = assessedAt(record, now);
  const r = config.risk;

  const state = stateBase(r.state_base, subscriber.state);

  const failurePoints = subscriber.billing_failures * r.billing_failure_points;
  const billingFailures = failurePoints <= 0 ? 0 : failurePoints > r.billing_failure_cap ? r.billing_failure_cap : failurePoints;

  const renewalPoints = subscriber.renewals * r.renewal_points;
  const renewals = renewalPoints >= 0 ? 0 : renewalPoints < r.renewal_cap ? r.renewal_cap : renewalPoints;

  const inactivity = inactivityPoints(inactiveDays(subscriber, now), config);

  let trialConversion = 0;
  const started = subscriber.trial_started_at;
  const ends = subscriber.trial_ends_at;
  if (subscriber.state === 'trialing' && started !== null && ends !== null && ends > started) {
    const fraction = (now - started) / (ends - started);
    if (fraction >= r.trial_late_fraction) trialConversion += r.trial_late_points;
    else if (fraction >= r.trial_halfway_fraction) trialConversion += r.trial_halfway_points;
  }
  const converted = subscriber.trial_converted_at;
  if (converted !== null && started !== null && converted - started > r.slow_conversion_days * DAY_MS) {
    trialConversion += r.slow_conversion_points;
  }

  // A cancellation because of the price is a signal of its own: the customer may stay for a better price.
  const cancelReason =
    subscriber.state === 'pending_cancel' && subscriber.cancel_reason === 'PRICE_INCREASE' ? r.price_increase_points : 0;

  const sum = state + billingFailures + renewals + inactivity + trialConversion + cancelReason;
  const score = sum < MIN_SCORE ? MIN_SCORE : sum > MAX_SCORE ? MAX_SCORE : sum;
  return {
    score,
    band: bandFor(score, config.bands),
    breakdown: {
      state,
      billing_failures: billingFailures,
      renewals,
      inactivity,
      trial_conversion: trialConversion,
      cancel_reason: cancelReason,
    },
  };
}
