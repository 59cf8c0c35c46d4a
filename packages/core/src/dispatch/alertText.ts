/** Labels, money formatting and escaping shared by the chat and email renderings of an alert. */
import type { STORES } from '../events/webhookSchema.js';
import type { Action } from '../recommend/recommendation.js';
import type { RiskBreakdown } from '../risk/risk.js';
import { DAY_MS } from '../config/defaultConfig.js';
import { churnProbability, type Calibration } from '../evaluation/calibrate.js';
import type { Alert } from './delivery.js';

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

/**
 * A human label for each store RevenueCat documents (`store` of its events), as alerts show it.
 *
 * @example
 * STORE_LABELS.APP_STORE; // 'App Store'
 */
export const STORE_LABELS = {
  AMAZON: 'Amazon Appstore',
  APP_STORE: 'App Store',
  MAC_APP_STORE: 'Mac App Store',
  PADDLE: 'Paddle',
  PLAY_STORE: 'Google Play',
  PROMOTIONAL: 'Promotional',
  RC_BILLING: 'Web Billing',
  ROKU: 'Roku',
  STRIPE: 'Stripe',
  TEST_STORE: 'Test Store',
} as const satisfies Record<(typeof STORES)[number], string>;

/**
 * Given a store code as RevenueCat sends it, returns its label (`STORE_LABELS`), or the code itself
 * for a store tenure does not know yet (kept as sent, like every open string field). Pure.
 *
 * @example
 * storeLabel('PLAY_STORE'); // 'Google Play'
 * storeLabel('NEW_STORE'); // 'NEW_STORE'
 */
export function storeLabel(store: string): string {
  return Object.hasOwn(STORE_LABELS, store) ? STORE_LABELS[store as keyof typeof STORE_LABELS] : store;
}

/**
 * Given a monthly value in USD, returns it as alerts show it: dollars with thousands separators,
 * whole cents, per month (no locale: the same text on every machine). Pure.
 *
 * @example
 * formatMonthlyUsd(9.99); // '$9.99/mo'
 * formatMonthlyUsd(1234.5); // '$1,234.50/mo'
 */
export function formatMonthlyUsd(value: number): string {
  const cents = Math.round(value * 100);
  const dollars = Math.floor(cents / 100).toString().replace(/\B(?=(\d{3})+$)/g, ',');
  return `$${dollars}.${String(cents % 100).padStart(2, '0')}/mo`;
}

/**
 * Given an alert, returns its money lines as [label, value] pairs, each only when known: the revenue
 * at risk (`formatMonthlyUsd`) and the store (`storeLabel`). Values are not escaped. Pure.
 *
 * @example
 * revenueFacts(alert); // [['Revenue at risk', '$9.99/mo'], ['Store', 'App Store']]
 */
export function revenueFacts(alert: Pick<Alert, 'monthly_value_usd' | 'store'>): [string, string][] {
  const facts: [string, string][] = [];
  const value = alert.monthly_value_usd ?? null;
  if (value !== null && Number.isFinite(value)) facts.push(['Revenue at risk', formatMonthlyUsd(value)]);
  const store = alert.store ?? null;
  if (store !== null && store !== '') facts.push(['Store', storeLabel(store)]);
  return facts;
}

const HOUR_MS = 3_600_000;

/**
 * Given a horizon in ms, returns it in words: whole days ("30 days", "1 day"), else whole hours,
 * else days with one decimal. Pure.
 *
 * @example
 * formatHorizon(30 * 86_400_000); // '30 days'
 */
export function formatHorizon(horizonMs: number): string {
  const days = horizonMs / DAY_MS;
  if (Number.isInteger(days)) return days === 1 ? '1 day' : `${days} days`;
  const hours = horizonMs / HOUR_MS;
  if (Number.isInteger(hours)) return hours === 1 ? '1 hour' : `${hours} hours`;
  return `${days.toFixed(1)} days`;
}

/**
 * Given a churn probability (0–1), returns it as alerts and the dashboard show it: whole percent
 * ("about 31 %"), "under 1 %" for a small non-zero chance and "over 99 %" short of certainty, so a
 * rounded figure never claims 0 or 100 it is not. Pure.
 *
 * @example
 * formatChurnPercent(0.3125); // 'about 31 %'
 * formatChurnPercent(0.004); // 'under 1 %'
 */
export function formatChurnPercent(probability: number): string {
  const percent = Math.round(probability * 100);
  if (probability > 0 && percent === 0) return 'under 1 %';
  if (probability < 1 && percent === 100) return 'over 99 %';
  return `about ${percent} %`;
}

/**
 * Given a calibration and a score, returns the sentence alerts carry: "about 31 % chance of churning
 * within 30 days" (`churnProbability` at the score, within the calibration's horizon). Pure.
 *
 * @example
 * churnChanceText(calibration, 72); // 'about 31 % chance of churning within 30 days'
 */
export function churnChanceText(calibration: Calibration, score: number): string {
  return formatChurnChance(churnProbability(calibration, score), calibration.horizon_ms);
}

/**
 * Given a churn probability and its horizon (ms), returns the sentence: "about 31 % chance of
 * churning within 30 days" (`formatChurnPercent`, `formatHorizon`). Pure.
 *
 * @example
 * formatChurnChance(0.31, 30 * 86_400_000); // 'about 31 % chance of churning within 30 days'
 */
export function formatChurnChance(probability: number, horizonMs: number): string {
  return `${formatChurnPercent(probability)} chance of churning within ${formatHorizon(horizonMs)}`;
}

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
