/**
 * What the score reads of a subscriber at an instant, apart from the weights `tune` moves: a
 * subscriber as of a cutoff becomes a few numbers (`riskFeatures`), and a candidate config scores
 * them (`scoreFeatures`) exactly as `scoreSubscriber` scores the subscriber. Samples with the same
 * features and outcome are one count (`FeatureCounts`), so tuning holds a table whose size is the
 * number of distinct feature rows, not of customers × cutoffs, and scores each row once per
 * candidate. The config parts read here (the trial fractions, `slow_conversion_days`) are those no
 * knob of `tune` moves; the property test holds both functions to `scoreSubscriber`.
 */
import { DAY_MS, type TenureConfig } from '../config/defaultConfig.js';
import { inactiveDays, inactivityPoints } from '../risk/inactiveDays.js';
import { stateBase } from '../risk/stateBase.js';
import { assessedAt } from '../subscriber/promotionalAccess.js';
import type { Subscriber, SubscriberState } from '../subscriber/subscriber.js';
import type { ScoreHistogram } from './scoreHistogram.js';

/** A running trial's stage, as the score's trial points read it. */
export const TRIAL_STAGES = ['none', 'halfway', 'late'] as const;
export type TrialStage = (typeof TRIAL_STAGES)[number];

/** What `scoreSubscriber` reads of a subscriber at an instant, given the config parts tuning keeps. */
export interface RiskFeatures {
  state: SubscriberState;
  billing_failures: number;
  renewals: number;
  inactive_days: number;
  trial: TrialStage;
  slow_conversion: boolean;
  price_increase: boolean;
}

/**
 * Given a subscriber, an instant and a config (only its trial fractions and `slow_conversion_days`
 * are read), returns the features the score is computed from. Pure.
 *
 * @example
 * riskFeatures(subscriber, now, DEFAULT_CONFIG).inactive_days; // 14
 */
export function riskFeatures(record: Subscriber, now: number, config: TenureConfig): RiskFeatures {
  const subscriber = assessedAt(record, now);
  const r = config.risk;
  let trial: TrialStage = 'none';
  const started = subscriber.trial_started_at;
  const ends = subscriber.trial_ends_at;
  if (subscriber.state === 'trialing' && started !== null && ends !== null && ends > started) {
    const fraction = (now - started) / (ends - started);
    if (fraction >= r.trial_late_fraction) trial = 'late';
    else if (fraction >= r.trial_halfway_fraction) trial = 'halfway';
  }
  const converted = subscriber.trial_converted_at;
  return {
    state: subscriber.state,
    billing_failures: subscriber.billing_failures,
    renewals: subscriber.renewals,
    inactive_days: inactiveDays(subscriber, now),
    trial,
    slow_conversion: converted !== null && started !== null && converted - started > r.slow_conversion_days * DAY_MS,
    price_increase: subscriber.state === 'pending_cancel' && subscriber.cancel_reason === 'PRICE_INCREASE',
  };
}

/**
 * Given features and a config, returns the score `scoreSubscriber` gives the subscriber they were
 * read from under that config (when its trial fractions and `slow_conversion_days` are those the
 * features were read with). Pure.
 *
 * @example
 * scoreFeatures(riskFeatures(subscriber, now, config), config) === scoreSubscriber(subscriber, now, config).score; // true
 */
export function scoreFeatures(f: RiskFeatures, config: TenureConfig): number {
  const r = config.risk;
  const failurePoints = f.billing_failures * r.billing_failure_points;
  const billingFailures = failurePoints <= 0 ? 0 : failurePoints > r.billing_failure_cap ? r.billing_failure_cap : failurePoints;
  const renewalPoints = f.renewals * r.renewal_points;
  const renewals = renewalPoints >= 0 ? 0 : renewalPoints < r.renewal_cap ? r.renewal_cap : renewalPoints;
  const trial = (f.trial === 'late' ? r.trial_late_points : f.trial === 'halfway' ? r.trial_halfway_points : 0) + (f.slow_conversion ? r.slow_conversion_points : 0);
  const sum =
    stateBase(r.state_base, f.state) + billingFailures + renewals + inactivityPoints(f.inactive_days, config) + trial + (f.price_increase ? r.price_increase_points : 0);
  return sum < 0 ? 0 : sum > 100 ? 100 : sum;
}

/** Samples as counts per distinct features: how many churned and stayed. Owned by its builder. */
export type FeatureCounts = Map<string, { features: RiskFeatures; churned: number; stayed: number }>;

/**
 * Given counts, features and an outcome, counts one sample in place. Mutates only the counts it is
 * given, which the caller owns.
 *
 * @example
 * countFeatures(counts, riskFeatures(subscriber, cutoff, config), true);
 */
export function countFeatures(counts: FeatureCounts, features: RiskFeatures, churned: boolean): void {
  const f = features;
  const key = `${f.state}|${f.billing_failures}|${f.renewals}|${f.inactive_days}|${f.trial}|${f.slow_conversion ? 1 : 0}|${f.price_increase ? 1 : 0}`;
  let row = counts.get(key);
  if (row === undefined) counts.set(key, (row = { features, churned: 0, stayed: 0 }));
  if (churned) row.churned += 1;
  else row.stayed += 1;
}

/**
 * Given counts, a config and a histogram, adds every counted sample under its score in place.
 * Mutates only the histogram it is given.
 *
 * @example
 * addFeatureCounts(histogram, counts, candidate);
 */
export function addFeatureCounts(histogram: ScoreHistogram, counts: FeatureCounts, config: TenureConfig): void {
  for (const { features, churned, stayed } of counts.values()) {
    const score = Math.round(scoreFeatures(features, config));
    histogram.churned[score]! += churned;
    histogram.stayed[score]! += stayed;
  }
}
