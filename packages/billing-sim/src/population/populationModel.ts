/**
 * The behavioural model of a generated population, as one config object: the plans, each customer's
 * latent traits, the per-month hazards of every lifecycle step and how they depend on tenure, plan,
 * price, billing failures and engagement, and the app activity around them. docs/billing-sim.md
 * (Populations) has the table; every number lives here.
 */
import type { ProductInput } from '../machine/products.js';

/** A plan customers buy: a subscription product of the catalog and its share of first purchases. */
export interface PopulationPlan {
  id: string;
  /** Billing period in months (1 or 12). */
  months: number;
  price: number;
  /** Share of first purchases and win-backs that buy it (the shares sum to 1). */
  share: number;
  /** The plans a plan change from this one goes to, equally likely. */
  changes_to: readonly string[];
}

/** The stores customers buy through; pauses exist on Play only. */
export type PopulationStore = 'APP_STORE' | 'PLAY_STORE';

export interface PopulationModel {
  plans: readonly PopulationPlan[];
  /** Free trial length of every plan, days. */
  trial_days: number;
  stores: Readonly<Record<PopulationStore, number>>;
  /** Grace period after a failed renewal, days, per store. */
  grace_days: Readonly<Record<PopulationStore, number>>;
  countries: Readonly<Record<string, number>>;

  /** Spread of the latent churn factor: exp(σ·z − σ²/2), z standard normal (mean 1). */
  propensity_sigma: number;
  /** Median app sessions per week at full engagement. */
  engagement_median_per_week: number;
  /** Spread of engagement: median · exp(σ·ε), ε standard normal, independent of z. */
  engagement_sigma: number;
  /** Hazards scale with (engagement / median)^−this: the less engaged churn more. */
  engagement_elasticity: number;

  /** Share of first purchases that start with a free trial (win-backs never do). */
  trial_share: number;
  /** A trial converts with probability this^propensity; otherwise it is cancelled during the trial. */
  trial_conversion: number;

  /** Voluntary cancellation per paid month at the reference price, for a propensity of 1, after the early months. */
  cancel_per_month: number;
  /** Paid month k's cancellation is multiplied by 1 + boost · e^(−(k−1)/decay): early months churn more. */
  tenure_boost: number;
  tenure_decay_months: number;
  /** Monthly price over the reference, to this power, multiplies the cancellation hazard. */
  price_elasticity: number;
  reference_monthly_price: number;
  /** Cancellation is multiplied by this once the subscription has had a billing failure. */
  after_failure_cancel_factor: number;
  /** No per-month hazard above this (a very high propensity still leaves some chance to stay). */
  max_monthly_hazard: number;
  /** A cancellation is undone (UNCANCELLATION) before its period ends with this probability. */
  uncancel: number;

  /** A paid period is refunded (within `refund_window_days` of its start) with this probability. */
  refund_per_period: number;
  refund_window_days: number;
  /** A monthly Play subscription plans a pause per month with this probability. */
  pause_per_month: number;
  /** Pause length in whole months, uniform in [min, max]. */
  pause_months: readonly [number, number];
  /** A pause ends early (RENEWAL before its planned resume) with this probability. */
  early_resume: number;
  /** An active subscription changes plan (PRODUCT_CHANGE, immediate) per month with this probability. */
  change_per_month: number;

  /** A renewal (and a trial's conversion charge) fails with this probability. */
  billing_failure: number;
  /** ... multiplied by this once the subscription has failed before. */
  repeat_failure_factor: number;
  /** Share of failures with a grace period (the others expire at once). */
  grace_share: number;
  /** A failure in its grace period is recovered (RENEWAL) with this probability. */
  recovery: number;
  /** After the last subscription ended, a win-back purchase per month with this probability. */
  winback_per_month: number;

  /** Share of customers whose activity declines before they cancel (the others churn without warning). */
  declining_share: number;
  /** The decline starts this many days before the cancellation, uniform in [min, max]. */
  decline_days: readonly [number, number];
  /** Activity falls linearly from its level to the floor over this many days from the decline's start. */
  decline_ramp_days: number;
  /** Activity level (of the engaged rate) after the ramp, until the subscription ends or the cancellation is undone. */
  decline_floor: number;
  /** Activity level while paused. */
  paused_level: number;
  /** A quiet spell (holiday) starts per month with this probability, for anyone subscribed. */
  dip_per_month: number;
  dip_days: readonly [number, number];
  /** Activity level during a quiet spell. */
  dip_level: number;
}

/**
 * The default model: a consumer app with a monthly plan, a dearer monthly plan and an annual plan,
 * about 6–9 % monthly churn after the first months, 5 % failed renewals of which about half recover.
 *
 * @example
 * generatePopulation({ customers: 1000, months: 12, seed: 'demo', model: { ...DEFAULT_POPULATION_MODEL, trial_share: 0 } });
 */
export const DEFAULT_POPULATION_MODEL: PopulationModel = Object.freeze({
  plans: Object.freeze([
    { id: 'monthly', months: 1, price: 9.99, share: 0.6, changes_to: ['annual', 'monthly_plus'] },
    { id: 'monthly_plus', months: 1, price: 14.99, share: 0.15, changes_to: ['monthly', 'annual'] },
    { id: 'annual', months: 12, price: 59.99, share: 0.25, changes_to: ['monthly'] },
  ]),
  trial_days: 7,
  stores: Object.freeze({ APP_STORE: 0.55, PLAY_STORE: 0.45 }),
  grace_days: Object.freeze({ APP_STORE: 16, PLAY_STORE: 7 }),
  countries: Object.freeze({ US: 0.5, GB: 0.1, DE: 0.1, FR: 0.1, BR: 0.1, JP: 0.1 }),

  propensity_sigma: 0.7,
  engagement_median_per_week: 3,
  engagement_sigma: 0.6,
  engagement_elasticity: 0.4,

  trial_share: 0.6,
  trial_conversion: 0.6,

  cancel_per_month: 0.05,
  tenure_boost: 1,
  tenure_decay_months: 3,
  price_elasticity: 0.6,
  reference_monthly_price: 9.99,
  after_failure_cancel_factor: 1.5,
  max_monthly_hazard: 0.9,
  uncancel: 0.15,

  refund_per_period: 0.01,
  refund_window_days: 14,
  pause_per_month: 0.03,
  pause_months: [1, 3] as const,
  early_resume: 0.25,
  change_per_month: 0.02,

  billing_failure: 0.05,
  repeat_failure_factor: 2,
  grace_share: 0.9,
  recovery: 0.55,
  winback_per_month: 0.03,

  declining_share: 0.6,
  decline_days: [21, 56] as const,
  decline_ramp_days: 7,
  decline_floor: 0.05,
  paused_level: 0.2,
  dip_per_month: 0.15,
  dip_days: [5, 14] as const,
  dip_level: 0.1,
});

/**
 * Given a model, returns the catalog of its plans as the simulator's product inputs (each with the
 * model's free trial and the `pro` entitlement). Pure.
 *
 * @example
 * populationProducts(DEFAULT_POPULATION_MODEL)[0]; // { id: 'monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D', price: 9.99, ... }
 */
export function populationProducts(model: PopulationModel): ProductInput[] {
  return model.plans.map((plan) => ({
    id: plan.id,
    type: 'subscription' as const,
    period: plan.months % 12 === 0 ? `P${plan.months / 12}Y` : `P${plan.months}M`,
    trial_period: `P${model.trial_days}D`,
    display_name: plan.id,
    price: plan.price,
    currency: 'USD',
    entitlement_ids: ['pro'],
  }));
}
