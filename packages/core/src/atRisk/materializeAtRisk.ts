/** The row a store keeps per subscriber so the at-risk query reads an index instead of scoring everyone. */
import { DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import type { Assessment } from '../dispatch/delivery.js';
import { assessSubscriber } from '../recommend/assessSubscriber.js';
import { nextAssessmentChange } from '../recommend/nextAssessmentChange.js';
import { monthlyValueCents } from '../revenue/monthlyValueUsd.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import type { AtRiskRow } from './atRisk.js';

/**
 * Given a subscriber, the time and the configuration, returns its assessment at `now` and the row
 * to store: state, score, band, monthly value (USD, whole cents), top recommendation, and `rescore_at` from `nextAssessmentChange`
 * (the row is exact for every instant of `[now, rescore_at)`). Pure.
 *
 * @example
 * const { row } = materializeAtRisk(subscriber, now, config);
 * row.rescore_at; // when the store must assess it again, or null
 */
export function materializeAtRisk(
  subscriber: Subscriber,
  now: number,
  config: TenureConfig = DEFAULT_CONFIG,
): { row: AtRiskRow; assessment: Assessment } {
  const assessment = assessSubscriber(subscriber, now, config);
  const top = assessment.recommendations[0] ?? null;
  return {
    assessment,
    row: {
      customer_id: subscriber.customer_id,
      // As assessed: a churned customer given access by a promotional grant is pending_cancel until it ends.
      state: assessment.subscriber.state,
      score: assessment.risk.score,
      band: assessment.risk.band,
      monthly_value_usd: monthlyValueCents(subscriber) / 100,
      top: top === null ? null : { ...top },
      assessed_at: now,
      rescore_at: nextAssessmentChange(subscriber, now, config, assessment),
    },
  };
}

/**
 * Given a configuration, returns a stable text that changes whenever any rule number changes, so a
 * store can tell that its rows were materialized under another configuration. Pure.
 *
 * @example
 * configFingerprint(DEFAULT_CONFIG) === configFingerprint(resolveConfig({})); // true
 */
export function configFingerprint(config: TenureConfig): string {
  const sorted = (value: unknown): unknown =>
    value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]))
      : value;
  return JSON.stringify(sorted(config));
}
