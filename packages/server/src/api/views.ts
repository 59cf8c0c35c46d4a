/** The JSON views of a subscriber and its assessment (snake_case, as on the wire). */
import { churnProbability, compareIds, graceEndsAt, monthlyValueCents, type Assessment, type AtRiskRow, type Calibration } from '@tenure/core';
import type { z } from 'zod';
import type { atRiskResponseSchema, Environment, recommendResponseSchema, subscriberResponseSchema } from './schemas.js';

export type SubscriberView = z.output<typeof subscriberResponseSchema>;
export type RecommendView = z.output<typeof recommendResponseSchema>;
export type AtRiskItem = z.output<typeof atRiskResponseSchema>['items'][number];

/**
 * Given the service's calibration (or null) and a score, returns the field to put beside the
 * score: `{ churn_probability }` with a calibration, nothing without one (the answers then stay as
 * they were). Pure.
 *
 * @example
 * ({ risk_score: 72, ...churnField(calibration, 72) }); // { risk_score: 72, churn_probability: 0.31 }
 */
export function churnField(calibration: Calibration | null, score: number): { churn_probability?: number } {
  return calibration === null ? {} : { churn_probability: churnProbability(calibration, score) };
}

/**
 * Given an assessment and the environment it was read from (default production), returns the
 * GET /api/subscribers/:id body: the record's fields without its internal ordering keys, each
 * optional field null when absent (a record stored by an older version lacks some), the grace
 * period as it applies now (`graceEndsAt`: null once a later event ended it). Pure.
 *
 * @example
 * subscriberView(assessSubscriber(subscriber, now, config)); // { customer_id, state, grace_ends_at, aliases, ..., risk_score, (churn_probability with a calibration) }
 */
export function subscriberView({ subscriber: s, risk }: Assessment, environment: Environment = 'production', calibration: Calibration | null = null): SubscriberView {
  return {
    customer_id: s.customer_id,
    environment,
    original_app_user_id: s.original_app_user_id ?? null,
    aliases: [...(s.aliases ?? [])],
    ids: [...new Set([s.customer_id, ...(s.original_app_user_id == null ? [] : [s.original_app_user_id]), ...(s.aliases ?? [])])].sort(compareIds),
    state: s.state,
    cancel_reason: s.cancel_reason ?? null,
    grace_ends_at: graceEndsAt(s),
    auto_resume_at: s.auto_resume_at ?? null,
    temporary_access_until: s.temporary_access_until ?? null,
    promotional_access_until: s.promotional_access_until ?? null,
    product_id: s.product_id,
    period_ends_at: s.period_ends_at,
    billing_failures: s.billing_failures,
    renewals: s.renewals,
    trial_started_at: s.trial_started_at,
    trial_ends_at: s.trial_ends_at,
    trial_converted_at: s.trial_converted_at,
    last_activity_at: s.last_activity_at,
    first_event_at: s.first_event_at,
    last_event_at: s.last_event_at,
    event_count: s.event_count,
    revenue: s.revenue === undefined || s.revenue === null ? null : { ...s.revenue },
    monthly_value_usd: monthlyValueCents(s) / 100,
    risk_score: risk.score,
    ...churnField(calibration, risk.score),
    risk_band: risk.band,
    breakdown: { ...risk.breakdown },
  };
}

/** Given an assessment (and the calibration, or null), returns the recommend body. Pure. */
export function recommendView({ subscriber, risk, recommendations }: Assessment, calibration: Calibration | null = null): RecommendView {
  return {
    customer_id: subscriber.customer_id,
    risk_score: risk.score,
    ...churnField(calibration, risk.score),
    risk_band: risk.band,
    breakdown: { ...risk.breakdown },
    recommendations: recommendations.map(({ action, urgency, reason, priority }) => ({ action, urgency, reason, priority })),
  };
}

/**
 * Given a stored at-risk row (exact at the query's `now`) and the calibration (or null), returns
 * its list item with the top recommendation (or null) and, with a calibration, `churn_probability`. Pure.
 *
 * @example
 * page.items.map(atRiskItem); // [{ customer_id, state, risk_score, risk_band, monthly_value_usd, top_recommendation }]
 */
export function atRiskItem({ customer_id, state, score, band, monthly_value_usd, top }: AtRiskRow, calibration: Calibration | null = null): AtRiskItem {
  return {
    customer_id,
    state,
    risk_score: score,
    ...churnField(calibration, score),
    risk_band: band,
    monthly_value_usd,
    top_recommendation: top === null ? null : { action: top.action, urgency: top.urgency, reason: top.reason, priority: top.priority },
  };
}
