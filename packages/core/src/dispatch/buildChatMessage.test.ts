import { describe, expect, it } from 'vitest';
import { makeRisk } from '../../test/subscribers.js';
import type { RiskBand } from '../risk/risk.js';
import { buildChatMessage, type ChatMessage } from './buildChatMessage.js';
import type { Alert } from './delivery.js';
import { RISK_COLOR_HEX } from './riskColor.js';

const alertWith = (overrides: Partial<Alert> = {}, score = 85, band: RiskBand = 'critical'): Alert => ({
  customer_id: 'user_42',
  state: 'billing_issue',
  product_id: 'pro_monthly',
  risk: makeRisk(score, band, { state: 80, billing_failures: 20, renewals: -10, inactivity: 3, trial_conversion: 5 }),
  recommendation: {
    action: 'billing_failure_alert',
    urgency: 'immediate',
    reason: 'Billing issue with risk score 85 (above 70) and 2 recorded billing failures; alert the team now.',
    priority: 1,
  },
  ...overrides,
});

/** A calibration: 0.31 at score 62, 0.5 from 80 up (scores 0..100). */
const calibration = { horizon_ms: 30 * 86_400_000, samples: 900, positives: 120, probabilities: Array.from({ length: 101 }, (_, s) => (s >= 80 ? 0.5 : s >= 62 ? 0.3125 : 0.05)) };

/** Every text string of the message: fallback and each text object of every block. */
function texts(message: ChatMessage): string[] {
  const found: string[] = [message.text];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'text' && typeof v === 'string') found.push(v);
        else walk(v);
      }
    }
  };
  walk(message.blocks);
  walk(message.attachments);
  return found;
}
const allText = (message: ChatMessage) => texts(message).join('\n');

describe('buildChatMessage', () => {
  it.each([
    [39, 'low', 'green', ':large_green_circle:'],
    [40, 'medium', 'yellow', ':large_yellow_circle:'],
    [59, 'medium', 'yellow', ':large_yellow_circle:'],
    [60, 'high', 'orange', ':large_orange_circle:'],
    [79, 'high', 'orange', ':large_orange_circle:'],
    [80, 'critical', 'red', ':red_circle:'],
  ] as const)('marks a score of %i (%s) %s with the colour bar and %s', (score, band, color, emoji) => {
    const message = buildChatMessage(alertWith({}, score, band));
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0]?.color).toBe(RISK_COLOR_HEX[color]);
    expect(message.text).toContain(emoji);
    expect(allText(message)).toContain(`${emoji} ${score}`);
  });

  it('shows the revenue at risk and the store as section fields, and in the fallback text', () => {
    const message = buildChatMessage(alertWith({ monthly_value_usd: 9.99, store: 'APP_STORE' }));
    const fields = message.blocks.flatMap((b) => (b.type === 'section' ? (b.fields ?? []) : [])).map((f) => f.text);
    expect(fields).toContain('*Revenue at risk*\n$9.99/mo');
    expect(fields).toContain('*Store*\nApp Store');
    expect(message.text).toContain('user_42 ($9.99/mo, App Store): billing_failure_alert');
  });

  it('omits the revenue at risk and the store when unknown', () => {
    const message = buildChatMessage(alertWith({ monthly_value_usd: null, store: null }));
    expect(allText(message)).not.toContain('Revenue at risk');
    expect(allText(message)).not.toContain('/mo');
    expect(allText(message)).not.toContain('*Store*');
    expect(message.text).toContain('user_42: billing_failure_alert');
  });

  it('escapes a store it does not know, shown as sent', () => {
    expect(allText(buildChatMessage(alertWith({ store: '<!channel>' })))).toContain('*Store*\n&lt;!channel&gt;');
  });

  it('has a text fallback naming the customer, score, band, action and urgency', () => {
    const { text } = buildChatMessage(alertWith());
    expect(text).toContain('user_42');
    expect(text).toContain('85');
    expect(text).toContain('critical');
    expect(text).toContain('billing_failure_alert');
    expect(text).toContain('immediate');
  });

  it('opens with a header block and names subscriber, score, band, state, action, urgency and reason', () => {
    const message = buildChatMessage(alertWith());
    expect(message.blocks[0]?.type).toBe('header');
    const all = allText(message);
    for (const expected of ['user_42', '85', 'critical', 'billing_issue', 'Billing failure alert', 'immediate', 'pro_monthly']) {
      expect(all).toContain(expected);
    }
    expect(all).toContain('2 recorded billing failures; alert the team now.');
  });

  it('shows every signal of the breakdown with its points', () => {
    const all = allText(buildChatMessage(alertWith()));
    const expected = { state: '+80', billing_failures: '+20', renewals: '-10', inactivity: '+3', trial_conversion: '+5' };
    for (const [signal, points] of Object.entries(expected)) expect(all).toContain(`(\`${signal}\`)\n${points}`);
  });

  it('escapes <script> and & in the customer id', () => {
    const message = buildChatMessage(alertWith({ customer_id: '<script>alert(1)</script> & co' }));
    const all = allText(message);
    expect(all).not.toContain('<script>');
    expect(all).not.toContain('& co');
    expect(all).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
    expect(message.text).toContain('&lt;script&gt;');
  });

  it('escapes a Slack mention in the customer id so it cannot ping the channel', () => {
    const all = allText(buildChatMessage(alertWith({ customer_id: '<!channel>' })));
    expect(all).not.toContain('<!channel>');
    expect(all).toContain('&lt;!channel&gt;');
  });

  it('escapes control characters in the product id and service name', () => {
    const all = allText(buildChatMessage(alertWith({ product_id: 'a<b>' }), { service_name: 'R&D' }));
    expect(all).toContain('a&lt;b&gt;');
    expect(all).toContain('R&amp;D');
    expect(all).not.toContain('a<b>');
  });

  it('names the service, tenure by default', () => {
    expect(allText(buildChatMessage(alertWith()))).toContain('Sent by tenure');
    expect(allText(buildChatMessage(alertWith(), { service_name: 'acme-retention' }))).toContain('Sent by acme-retention');
  });

  it('adds the link as a Slack link with & escaped and | encoded', () => {
    const all = allText(buildChatMessage(alertWith(), { link: 'https://admin.example.com/u?id=1&x=a|b' }));
    expect(all).toContain('<https://admin.example.com/u?id=1&amp;x=a%7Cb|Open subscriber>');
  });

  it('adds no link when none is given', () => {
    expect(allText(buildChatMessage(alertWith()))).not.toContain('Open subscriber');
  });

  it('shows a missing product as none', () => {
    expect(allText(buildChatMessage(alertWith({ product_id: null })))).toContain('*Product*\n_none_');
  });

  it('says the churn probability of the score in the fallback, the section and the score field when a calibration is given', () => {
    const message = buildChatMessage(alertWith(), { calibration });
    expect(message.text).toContain('critical risk (score 85 · about 50 % chance of churning within 30 days) for user_42');
    const section = message.blocks[1] as { text: { text: string }; fields: { text: string }[] };
    expect(section.text.text).toBe('Subscriber *user_42* is at *critical* risk with a score of *85*/100 · about 50 % chance of churning within 30 days.');
    expect(section.fields[0]!.text).toBe('*Risk score*\n:red_circle: 85 (critical) · about 50 % chance of churning within 30 days');
    expect(allText(buildChatMessage(alertWith()))).not.toMatch(/churning/);
  });
});
