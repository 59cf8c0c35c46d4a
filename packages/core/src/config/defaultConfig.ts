/**
 * Every threshold and weight of tenure's rules, in one object. `docs/rules.md` lists each with its
 * source (seed rule or tenure decision). Callers override parts with `resolveConfig`.
 */
import type { SubscriberState } from '../subscriber/subscriber.js';

export const DAY_MS = 86_400_000;

export interface TenureConfig {
  risk: {
    /**
     * Base score of each state. Seed: billing_issue 80, churned 100, trialing 40; tenure: active 10,
     * pending_cancel 60, paused 50 (it resumes on its own: lower than churned), refunded 90.
     */
    state_base: Record<SubscriberState, number>;
    /** Points per recorded billing failure and their total cap (seed: +10 each, at most +30). */
    billing_failure_points: number;
    billing_failure_cap: number;
    /** Points per renewal (negative) and their total cap (seed: -5 each, at most -20). */
    renewal_points: number;
    renewal_cap: number;
    /** Inactivity: after `inactivity_grace_days`, +1 per `inactivity_days_per_point` full days, at most `inactivity_cap`. */
    inactivity_grace_days: number;
    inactivity_days_per_point: number;
    inactivity_cap: number;
    /** A running trial without conversion: points once these fractions of it have passed. */
    trial_halfway_fraction: number;
    trial_halfway_points: number;
    trial_late_fraction: number;
    trial_late_points: number;
    /** A conversion that took longer than this many days adds these points. */
    slow_conversion_days: number;
    slow_conversion_points: number;
    /** A cancellation because of a price increase (`cancel_reason` PRICE_INCREASE) adds these points while pending_cancel. */
    price_increase_points: number;
  };
  /** Lowest score of each band; below `medium` is `low`. Same thresholds as the chat colours. */
  bands: { critical: number; high: number; medium: number };
  recommend: {
    /** Seed: billing_issue above this score gets billing_failure_alert + payment_update. */
    billing_alert_above: number;
    /** Seed: churned above this score gets winback; at or below, loyalty_discount. */
    winback_above: number;
    /** trial_nudge from day L - this of an L-day trial (seed: day 12 of 14). */
    trial_nudge_days_before_end: number;
    /** pending_cancel with at least this many renewals gets loyalty_discount, else engagement_checkin. */
    loyalty_min_renewals: number;
    /** pending_cancel whose period ends within this many days also gets renewal_reminder. */
    renewal_reminder_days: number;
    /** active with at least this many days of inactivity gets engagement_checkin. */
    engagement_inactive_days: number;
    /**
     * billing_issue in a grace period with more than this many days left gets grace_payment_reminder
     * (soon); within it (or with no grace period) the seed's immediate actions.
     */
    grace_urgent_days: number;
  };
}

/** The default configuration: the seed's numbers plus tenure's documented decisions. */
export const DEFAULT_CONFIG: TenureConfig = {
  risk: {
    state_base: { trialing: 40, active: 10, pending_cancel: 60, churned: 100, billing_issue: 80, paused: 50, refunded: 90 },
    billing_failure_points: 10,
    billing_failure_cap: 30,
    renewal_points: -5,
    renewal_cap: -20,
    inactivity_grace_days: 7,
    inactivity_days_per_point: 2,
    inactivity_cap: 15,
    trial_halfway_fraction: 0.5,
    trial_halfway_points: 5,
    trial_late_fraction: 0.8,
    trial_late_points: 10,
    slow_conversion_days: 7,
    slow_conversion_points: 5,
    price_increase_points: 10,
  },
  bands: { critical: 80, high: 60, medium: 40 },
  recommend: {
    billing_alert_above: 70,
    winback_above: 80,
    trial_nudge_days_before_end: 2,
    loyalty_min_renewals: 3,
    renewal_reminder_days: 7,
    engagement_inactive_days: 14,
    grace_urgent_days: 3,
  },
};

/** A partial override of the configuration, section by section. */
export interface ConfigOverrides {
  risk?: Partial<Omit<TenureConfig['risk'], 'state_base'>> & { state_base?: Partial<Record<SubscriberState, number>> };
  bands?: Partial<TenureConfig['bands']>;
  recommend?: Partial<TenureConfig['recommend']>;
}

/**
 * Given overrides, returns a full configuration with every unspecified value from `DEFAULT_CONFIG`. Pure.
 *
 * @example
 * const config = resolveConfig({ risk: { state_base: { active: 0 } } });
 */
export function resolveConfig(overrides: ConfigOverrides = {}): TenureConfig {
  const base = DEFAULT_CONFIG;
  return {
    risk: {
      ...base.risk,
      ...overrides.risk,
      state_base: { ...base.risk.state_base, ...overrides.risk?.state_base },
    },
    bands: { ...base.bands, ...overrides.bands },
    recommend: { ...base.recommend, ...overrides.recommend },
  };
}
