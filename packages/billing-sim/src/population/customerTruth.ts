/**
 * The ground truth of a generated customer: its latent traits and what really happened to it, for
 * checking an evaluation against (did it churn, when, why; how likely it was to).
 */
import { ACCESS_RANK, type SubscriberState } from '@tenure/core';
import type { CustomerState, SubscriptionState } from '../machine/world.js';
import type { Ending, LifecycleOutcome } from './customerLifecycle.js';
import type { CustomerTraits } from './customerTraits.js';

export interface CustomerTruth {
  customer_id: string;
  /** The multiplier of every voluntary hazard of the customer (latent factor × engagement factor; 1 is typical). */
  propensity: number;
  /** Sessions per week at full engagement. */
  engagement_per_week: number;
  /** Its activity declines in the weeks before it cancels (a churn activity can predict). */
  declines_before_cancel: boolean;
  store: string;
  first_purchase_at: number;
  /** Where it stands at the window's end: the state the fold of its webhooks gives. */
  state: SubscriberState;
  /** The product of that state's subscription. */
  product_id: string;
  /** Ended at the window's end (state churned or refunded). */
  churned: boolean;
  /** When its last subscription ended, if it is churned at the end. */
  churned_at: number | null;
  churn_reason: Ending['reason'] | null;
  /** Every subscription end in the window, in order (a win-back can follow one). */
  endings: Ending[];
  win_backs: number;
  renewals: number;
  billing_failures: number;
}

/** The state the core's fold gives one subscription of the simulator. */
export function foldedStateOf(sub: SubscriptionState): SubscriberState {
  switch (sub.status) {
    case 'trialing':
      return sub.auto_renew ? 'trialing' : 'pending_cancel';
    case 'active':
      return sub.auto_renew ? 'active' : 'pending_cancel';
    case 'grace':
      return 'billing_issue';
    case 'paused':
      return 'paused';
    case 'expired':
      return sub.refund !== null ? 'refunded' : 'churned';
    case 'temporary':
      return 'active';
  }
}

/** The access rank of a subscription (a billing issue here always has a grace period: without one it expires at once). */
const rankOf = (sub: SubscriptionState): number => {
  const state = foldedStateOf(sub);
  return ACCESS_RANK[state === 'billing_issue' && sub.grace_expires_at !== null ? 'billing_issue_in_grace' : state];
};


/**
 * A propensity as the truth file writes it: 4 decimals, or 4 significant digits below 0.00005, where
 * 4 decimals would write 0 for a customer who still has a (tiny) hazard (seen with a wide
 * `propensity_sigma`: a draw 4.5 σ low). Positive in, positive out.
 */
const roundedPropensity = (propensity: number): number => {
  const rounded = Math.round(propensity * 10_000) / 10_000;
  return rounded > 0 ? rounded : Number(propensity.toPrecision(4));
};
/**
 * Given the customer after its walk, its traits, the walk's outcome and its event counts, returns
 * its truth. The primary subscription is chosen as the core chooses it: the most access, then the
 * latest period end. Pure.
 *
 * @example
 * truthOf(customer, traits, outcome, { renewals: 3, billing_failures: 0 }).state; // 'active'
 */
export function truthOf(customer: CustomerState, traits: CustomerTraits, outcome: LifecycleOutcome, counts: { renewals: number; billing_failures: number }): CustomerTruth {
  let primary = customer.subscriptions[0]!;
  for (const sub of customer.subscriptions) {
    const byRank = rankOf(sub) - rankOf(primary);
    if (byRank < 0 || (byRank === 0 && sub.period_end > primary.period_end)) primary = sub;
  }
  const state = foldedStateOf(primary);
  const churned = state === 'churned' || state === 'refunded';
  const last = outcome.endings[outcome.endings.length - 1];
  return {
    customer_id: customer.id,
    propensity: roundedPropensity(traits.propensity),
    engagement_per_week: Math.round(traits.engagement * 100) / 100,
    declines_before_cancel: traits.declines,
    store: traits.store,
    first_purchase_at: traits.arrival,
    state,
    product_id: primary.product_id,
    churned,
    churned_at: churned && last !== undefined ? last.at : null,
    churn_reason: churned && last !== undefined ? last.reason : null,
    endings: outcome.endings,
    win_backs: outcome.win_backs,
    renewals: counts.renewals,
    billing_failures: counts.billing_failures,
  };
}
