/** The chat rendering of an alert: a Slack incoming-webhook payload in Block Kit. */
import type { ChatBlock } from './blockKit.js';
import type { Calibration } from '../evaluation/calibrate.js';
import { ACTION_LABELS, DEFAULT_SERVICE_NAME, SIGNALS, SIGNAL_LABELS, churnChanceText, escapeMrkdwn, revenueFacts, signed } from './alertText.js';
import type { Alert } from './delivery.js';
import { RISK_COLOR_EMOJI, RISK_COLOR_HEX, colorForBand } from './riskColor.js';

/** One Slack attachment: a colour bar beside its blocks. */
export interface ChatAttachment {
  /** Hex colour of the bar, from `RISK_COLOR_HEX`. */
  color: string;
  blocks: ChatBlock[];
}

/** A Slack incoming-webhook payload: `text` is the notification and fallback text. */
export interface ChatMessage {
  text: string;
  blocks: ChatBlock[];
  attachments: ChatAttachment[];
}

/** Options shared by the chat and email renderings. */
export interface AlertMessageOptions {
  /** The retention service's name, shown as the sender (default `tenure`). */
  service_name?: string | undefined;
  /** A link to the subscriber in the team's tools. */
  link?: string | undefined;
  /**
   * The service's calibration: when given, the message says the churn probability of the score
   * ("about 31 % chance of churning within 30 days", `churnChanceText`); without it, nothing changes.
   */
  calibration?: Calibration | undefined;
}

/** A Slack link target: the three control characters escaped, and `|` encoded so it cannot end the URL. */
function slackUrl(url: string): string {
  return escapeMrkdwn(url).replace(/\|/g, '%7C');
}

/**
 * Given an alert and options, returns a Slack incoming-webhook message for the app's team: a fallback
 * `text`, top-level blocks naming the subscriber, score, band, action and urgency (and the revenue at
 * risk, "$9.99/mo", and the store when known: at most 8 section fields, under Slack's 10), and one attachment
 * whose colour bar (and the emoji beside the score) marks the risk by the colour of its band (`colorForBand`, so the
 * configured bands decide it), holding the
 * reason and every signal of the breakdown. With `options.calibration`, the fallback text, the
 * section and the score field add the churn probability ("score 72 · about 31 % chance of churning
 * within 30 days"). User-provided strings are mrkdwn-escaped. Pure.
 *
 * @example
 * const message = buildChatMessage(alert, { service_name: 'acme-retention' });
 * await fetch(webhookUrl, { method: 'POST', body: JSON.stringify(message) });
 */
export function buildChatMessage(alert: Alert, options: AlertMessageOptions = {}): ChatMessage {
  const { risk, recommendation } = alert;
  const color = colorForBand(risk.band);
  const emoji = RISK_COLOR_EMOJI[color];
  const service = escapeMrkdwn(options.service_name ?? DEFAULT_SERVICE_NAME);
  const customer = escapeMrkdwn(alert.customer_id);
  const product = alert.product_id === null ? '_none_' : `\`${escapeMrkdwn(alert.product_id)}\``;
  const action = ACTION_LABELS[recommendation.action];
  const reason = escapeMrkdwn(recommendation.reason);
  const money = revenueFacts(alert).map(([label, value]) => [label, escapeMrkdwn(value)] as const);
  const moneyNote = money.length === 0 ? '' : ` (${money.map(([, value]) => value).join(', ')})`;
  const chance = options.calibration === undefined ? '' : ` · ${churnChanceText(options.calibration, risk.score)}`;

  const text =
    `${emoji} ${risk.band} risk (score ${risk.score}${chance}) for ${customer}${moneyNote}: ` +
    `${recommendation.action} (${recommendation.urgency}). ${reason}`;

  const blocks: ChatBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: `${emoji} Retention alert: ${action}`, emoji: true } },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `Subscriber *${customer}* is at *${risk.band}* risk with a score of *${risk.score}*/100${chance}.`,
      },
      fields: [
        { type: 'mrkdwn', text: `*Risk score*\n${emoji} ${risk.score} (${risk.band})${chance}` },
        { type: 'mrkdwn', text: `*State*\n${alert.state}` },
        { type: 'mrkdwn', text: `*Action*\n${action} (\`${recommendation.action}\`)` },
        { type: 'mrkdwn', text: `*Urgency*\n${recommendation.urgency}` },
        { type: 'mrkdwn', text: `*Product*\n${product}` },
        { type: 'mrkdwn', text: `*Priority*\n${recommendation.priority}` },
        ...money.map(([label, value]) => ({ type: 'mrkdwn' as const, text: `*${label}*\n${value}` })),
      ],
    },
  ];

  const context =
    options.link === undefined
      ? `Sent by ${service}`
      : `Sent by ${service} · <${slackUrl(options.link)}|Open subscriber>`;
  const attachmentBlocks: ChatBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*Reason*\n${reason}` } },
    {
      type: 'section',
      fields: SIGNALS.map((signal) => ({
        type: 'mrkdwn' as const,
        text: `*${SIGNAL_LABELS[signal]}* (\`${signal}\`)\n${signed(risk.breakdown[signal])}`,
      })),
    },
    { type: 'context', elements: [{ type: 'mrkdwn', text: context }] },
  ];

  return { text, blocks, attachments: [{ color: RISK_COLOR_HEX[color], blocks: attachmentBlocks }] };
}
