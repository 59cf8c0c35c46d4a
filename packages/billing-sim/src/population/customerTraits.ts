/**
 * A generated customer's latent traits, drawn once: when it arrives, what it buys first, where, its
 * churn propensity and its engagement, and whether its activity declines before it cancels.
 */
import { chance, MINUTE_MS, normal, pickWeighted, type Uniform } from './draws.js';
import type { PopulationModel, PopulationPlan, PopulationStore } from './populationModel.js';

export interface CustomerTraits {
  /** First purchase, a whole minute in the window. */
  arrival: number;
  plan: PopulationPlan;
  trial: boolean;
  store: PopulationStore;
  country: string;
  /** The latent normal draw behind the propensity. */
  z: number;
  /** Sessions per week at full engagement. */
  engagement: number;
  /** The customer's multiplier of every voluntary hazard: latent factor × engagement factor. */
  propensity: number;
  /** Its activity declines in the weeks before it cancels. */
  declines: boolean;
}

/**
 * Given a stream, the model and the window (`start`, `end`: epoch ms), returns a customer's traits.
 * Pure apart from the stream.
 *
 * @example
 * drawTraits(seededRandom(1), DEFAULT_POPULATION_MODEL, start, end).propensity;
 */
export function drawTraits(u: Uniform, model: PopulationModel, start: number, end: number): CustomerTraits {
  const minutes = Math.max(1, Math.floor((end - start) / MINUTE_MS));
  const arrival = start + MINUTE_MS * Math.floor(u() * minutes);
  const plan = drawPlan(u, model);
  const trial = chance(u, model.trial_share);
  const store = pickWeighted(u, model.stores);
  const country = pickWeighted(u, model.countries);
  const z = normal(u);
  const sigma = model.propensity_sigma;
  const engagement = model.engagement_median_per_week * Math.exp(model.engagement_sigma * normal(u));
  const propensity = Math.exp(sigma * z - (sigma * sigma) / 2) * Math.pow(engagement / model.engagement_median_per_week, -model.engagement_elasticity);
  const declines = chance(u, model.declining_share);
  return { arrival, plan, trial, store, country, z, engagement, propensity, declines };
}

/** A plan drawn by the model's shares. */
export function drawPlan(u: Uniform, model: PopulationModel): PopulationPlan {
  let x = u();
  for (const plan of model.plans) {
    x -= plan.share;
    if (x < 0) return plan;
  }
  return model.plans[model.plans.length - 1]!;
}
