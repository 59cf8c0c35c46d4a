/** The alert: what the team is told about one recommendation for one subscriber. */
import type { Recommendation } from '../recommend/recommendation.js';
import { monthlyValueCents } from '../revenue/monthlyValueUsd.js';
import type { Alert, Assessment } from './delivery.js';

/**
 * Given an assessment and one of its recommendations, returns the alert that carries them: the
 * customer, its state and product, the revenue at risk (monthly value in USD, whole cents, and the
 * store; null when no price is known), its risk and the recommendation. Pure.
 *
 * @example
 * const alert = toAlert(assessment, assessment.recommendations[0]!);
 * alert.customer_id; // assessment.subscriber.customer_id
 */
export function toAlert(assessment: Assessment, recommendation: Recommendation): Alert {
  const { subscriber } = assessment;
  const revenue = subscriber.revenue ?? null;
  return {
    customer_id: subscriber.customer_id,
    person_id: subscriber.original_app_user_id ?? subscriber.customer_id,
    state: subscriber.state,
    product_id: subscriber.product_id,
    monthly_value_usd: revenue === null ? null : monthlyValueCents(subscriber) / 100,
    store: revenue?.store ?? null,
    risk: assessment.risk,
    recommendation,
  };
}
