/** The email rendering of an alert, for the app's team. */
import { ACTION_LABELS, DEFAULT_SERVICE_NAME, SIGNALS, SIGNAL_LABELS, churnChanceText, escapeHtml, formatMonthlyUsd, revenueFacts, signed } from './alertText.js';
import type { AlertMessageOptions } from './buildChatMessage.js';
import type { Alert } from './delivery.js';
import { RISK_COLOR_HEX, colorForBand } from './riskColor.js';

/** An email ready for any mail transport. */
export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

/** A header value on one line, so a customer id cannot inject mail headers. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/**
 * Given an alert and options, returns an email for the app's team with the same content as the chat
 * message: subscriber, score, band (and its colour), state, product, the revenue at risk and the store
 * (when known; the subject ends with the figure), action, urgency, reason and every signal of the
 * breakdown, as a one-line subject, plain text and HTML in which every interpolated value is
 * HTML-escaped. With `options.calibration`, the text and HTML add the churn probability of the score
 * ("Churn probability: about 31 % chance of churning within 30 days"). Pure.
 *
 * @example
 * const { subject, text, html } = buildEmail(alert, { link: 'https://admin.example.com/u/42' });
 */
export function buildEmail(alert: Alert, options: AlertMessageOptions = {}): EmailMessage {
  const { risk, recommendation } = alert;
  const color = colorForBand(risk.band);
  const hex = RISK_COLOR_HEX[color];
  const service = options.service_name ?? DEFAULT_SERVICE_NAME;
  const action = ACTION_LABELS[recommendation.action];
  const product = alert.product_id ?? 'none';

  const value = alert.monthly_value_usd ?? null;
  const money = value === null || !Number.isFinite(value) ? '' : `, ${formatMonthlyUsd(value)}`;
  const subject = oneLine(
    `[${service}] ${risk.band} risk (${risk.score}): ${action} for ${alert.customer_id}${money}`,
  );

  const chance = options.calibration === undefined ? null : churnChanceText(options.calibration, risk.score);
  const facts: [string, string][] = [
    ['Subscriber', alert.customer_id],
    ['Risk score', `${risk.score}/100 (${color})`],
    ['Risk band', risk.band],
    ...(chance === null ? [] : [['Churn probability', chance] as [string, string]]),
    ['State', alert.state],
    ['Product', product],
    ...revenueFacts(alert),
    ['Action', `${action} (${recommendation.action})`],
    ['Urgency', recommendation.urgency],
    ['Priority', String(recommendation.priority)],
  ];
  const signals: [string, string][] = SIGNALS.map((signal) => [
    `${SIGNAL_LABELS[signal]} (${signal})`,
    signed(risk.breakdown[signal]),
  ]);

  const text = [
    `Retention alert from ${service}: ${action}`,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    `Reason: ${recommendation.reason}`,
    '',
    'Score breakdown:',
    ...signals.map(([label, value]) => `  ${label}: ${value}`),
    ...(options.link === undefined ? [] : ['', `Open subscriber: ${options.link}`]),
    '',
  ].join('\n');

  const row = ([label, value]: [string, string]) =>
    `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`;
  const html = [
    '<!doctype html>',
    '<html><body style="font-family:sans-serif">',
    `<div style="border-left:6px solid ${hex};padding-left:12px">`,
    `<h2>Retention alert: ${escapeHtml(action)}</h2>`,
    `<p><strong>${escapeHtml(alert.customer_id)}</strong> is at <strong style="color:${hex}">${escapeHtml(risk.band)}</strong> risk with a score of <strong>${risk.score}</strong>/100${chance === null ? '' : `: ${escapeHtml(chance)}`}.</p>`,
    `<table>${facts.map(row).join('')}</table>`,
    `<p><strong>Reason:</strong> ${escapeHtml(recommendation.reason)}</p>`,
    '<h3>Score breakdown</h3>',
    `<table>${signals.map(row).join('')}</table>`,
    ...(options.link === undefined ? [] : [`<p><a href="${escapeHtml(options.link)}">Open subscriber</a></p>`]),
    `<p style="color:#666">Sent by ${escapeHtml(service)}</p>`,
    '</div>',
    '</body></html>',
  ].join('\n');

  return { subject, text, html };
}
