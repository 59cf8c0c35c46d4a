/** Recommended actions, their urgencies and the fixed mapping between them (seed tables). */

export const ACTIONS = [
  'winback',
  'billing_failure_alert',
  'payment_update',
  'trial_nudge',
  'trial_feature_highlight',
  'loyalty_discount',
  'engagement_checkin',
  'renewal_reminder',
  'pause_winback',
  'refund_followup',
  'price_increase_save',
  'grace_payment_reminder',
  'monitor',
] as const;
export type Action = (typeof ACTIONS)[number];

export const URGENCIES = ['immediate', 'soon', 'monitor'] as const;
export type Urgency = (typeof URGENCIES)[number];

/** The seed's action-to-urgency table, with tenure's actions for paused, refunded, price-increase and grace-period subscribers. */
export const URGENCY_BY_ACTION = {
  winback: 'immediate',
  billing_failure_alert: 'immediate',
  payment_update: 'immediate',
  trial_nudge: 'soon',
  trial_feature_highlight: 'soon',
  loyalty_discount: 'soon',
  engagement_checkin: 'soon',
  renewal_reminder: 'soon',
  // tenure's decisions for the states and signals the seed does not know.
  pause_winback: 'soon',
  refund_followup: 'immediate',
  price_increase_save: 'soon',
  grace_payment_reminder: 'soon',
  monitor: 'monitor',
} as const satisfies Record<Action, Urgency>;

/** Sort rank of each urgency: lower is more urgent. */
export const URGENCY_RANK = { immediate: 0, soon: 1, monitor: 2 } as const satisfies Record<Urgency, number>;

export interface Recommendation {
  action: Action;
  urgency: Urgency;
  /** A human sentence citing the numbers that triggered it. */
  reason: string;
  /** 1 is the most urgent; the list is sorted by it. */
  priority: number;
}
