/** Labels and escaping shared by the chat and email renderings of an alert. */
import type { Action } from '../recommend/recommendation.js';
import type { RiskBreakdown } from '../risk/risk.js';

/**
 * A human label for each action, as shown in alert titles.
 *
 * @example
 * ACTION_LABELS.winback; // 'Win back'
 */
export const ACTION_LABELS = {
  winback: 'Win back',
  billing_failure_alert: 'Billing failure alert',
  payment_update: 'Payment method update',
  trial_nudge: 'Trial nudge',
  trial_feature_highlight: 'Trial feature highlight',
  loyalty_discount: 'Loyalty discount',
  engagement_checkin: 'Engagement check-in',
  renewal_reminder: 'Renewal reminder',
  pause_winback: 'Paused win-back',
  refund_followup: 'Refund follow-up',
  price_increase_save: 'Price increase save',
  grace_payment_reminder: 'Grace period payment reminder',
  monitor: 'Monitor',
} as const satisfies Record<Action, string>;

/**
 * A human label for each signal of the risk breakdown, in display order.
 *
 * @example
 * SIGNAL_LABELS.billing_failures; // 'Billing failures'
 */
export const SIGNAL_LABELS = {
  state: 'State base',
  billing_failures: 'Billing failures',
  renewals: 'Renewals',
  inactivity: 'Inactivity',
  trial_conversion: 'Trial conversion',
  cancel_reason: 'Cancellation reason',
} as const satisfies Record<keyof RiskBreakdown, string>;

/** The breakdown's signal keys, in display order. */
export const SIGNALS = Object.keys(SIGNAL_LABELS) as (keyof RiskBreakdown)[];

/** The sender name when no `service_name` is given. */
export const DEFAULT_SERVICE_NAME = 'tenure';

/** Escapes the three characters Slack mrkdwn treats as control characters. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes a value for HTML text and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A signed number for a breakdown line: +10, -5, 0. */
export function signed(points: number): string {
  return points > 0 ? `+${points}` : `${points}`;
}
