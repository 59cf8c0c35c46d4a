import { describe, expect, it } from 'vitest';
import { makeRisk } from '../../test/subscribers.js';
import type { RiskBand } from '../risk/risk.js';
import { buildEmail } from './buildEmail.js';
import type { Alert } from './delivery.js';
import { RISK_COLOR_HEX } from './riskColor.js';

const alertWith = (overrides: Partial<Alert> = {}, score = 62, band: RiskBand = 'high'): Alert => ({
  customer_id: 'user_42',
  state: 'pending_cancel',
  product_id: 'pro_yearly',
  risk: makeRisk(score, band, { state: 60, billing_failures: 0, renewals: -15, inactivity: 12, trial_conversion: 5 }),
  recommendation: {
    action: 'loyalty_discount',
    urgency: 'soon',
    reason: 'Cancelled after 3 renewals (at least 3), risk score 62; offer a loyalty discount to stay.',
    priority: 1,
  },
  ...overrides,
});

/** A calibration: 0.31 at score 62, 0.5 from 80 up (scores 0..100). */
const calibration = { horizon_ms: 30 * 86_400_000, samples: 900, positives: 120, probabilities: Array.from({ length: 101 }, (_, s) => (s >= 80 ? 0.5 : s >= 62 ? 0.3125 : 0.05)) };

describe('buildEmail', () => {
  it('puts the service, band, score, action and customer in the subject', () => {
    expect(buildEmail(alertWith()).subject).toBe('[tenure] high risk (62): Loyalty discount for user_42');
  });

  it('ends the subject with the revenue at risk when it is known', () => {
    expect(buildEmail(alertWith({ monthly_value_usd: 8.33, store: 'APP_STORE' })).subject).toBe('[tenure] high risk (62): Loyalty discount for user_42, $8.33/mo');
    expect(buildEmail(alertWith({ monthly_value_usd: null, store: null })).subject).toBe('[tenure] high risk (62): Loyalty discount for user_42');
  });

  it('shows the revenue at risk and the store in text and HTML, and neither line when unknown', () => {
    const known = buildEmail(alertWith({ monthly_value_usd: 1234.5, store: 'PLAY_STORE' }));
    expect(known.text).toContain('Revenue at risk: $1,234.50/mo\nStore: Google Play\n');
    expect(known.html).toContain('<th align="left" style="padding:2px 12px 2px 0">Revenue at risk</th><td>$1,234.50/mo</td>');
    expect(known.html).toContain('<td>Google Play</td>');
    const unknown = buildEmail(alertWith({ monthly_value_usd: null, store: null }));
    for (const body of [unknown.text, unknown.html]) {
      expect(body).not.toContain('Revenue at risk');
      expect(body).not.toContain('Store');
    }
  });

  it('escapes a store it does not know, shown as sent', () => {
    const { html, text } = buildEmail(alertWith({ monthly_value_usd: 5, store: '<b>NEW</b>' }));
    expect(text).toContain('Store: <b>NEW</b>');
    expect(html).toContain('<td>&lt;b&gt;NEW&lt;/b&gt;</td>');
  });

  it('keeps the subject on one line whatever the customer id', () => {
    const { subject } = buildEmail(alertWith({ customer_id: 'evil\r\nBcc: all@example.com' }));
    expect(subject).not.toMatch(/[\r\n]/);
  });

  it('gives the same content in text and HTML: customer, score, band, state, product, action, urgency, reason', () => {
    const { text, html } = buildEmail(alertWith());
    for (const body of [text, html]) {
      for (const expected of ['user_42', '62', 'high', 'pending_cancel', 'pro_yearly', 'Loyalty discount', 'loyalty_discount', 'soon']) {
        expect(body).toContain(expected);
      }
      expect(body).toContain('offer a loyalty discount to stay.');
    }
  });

  it('lists every signal of the breakdown with its points', () => {
    const { text, html } = buildEmail(alertWith());
    const expected = { state: '+60', billing_failures: '0', renewals: '-15', inactivity: '+12', trial_conversion: '+5' };
    for (const [signal, points] of Object.entries(expected)) {
      expect(text).toContain(`(${signal}): ${points}\n`);
      expect(html).toContain(`(${signal})</th><td>${points}</td>`);
    }
  });

  it.each([
    [39, 'low', 'green'],
    [40, 'medium', 'yellow'],
    [59, 'medium', 'yellow'],
    [60, 'high', 'orange'],
    [79, 'high', 'orange'],
    [80, 'critical', 'red'],
  ] as const)('marks a score of %i (%s) %s in the HTML and names the colour in the text', (score, band, color) => {
    const { text, html } = buildEmail(alertWith({}, score, band));
    expect(html).toContain(`border-left:6px solid ${RISK_COLOR_HEX[color]}`);
    expect(text).toContain(`${score}/100 (${color})`);
  });

  it('HTML-escapes <script> and & in the customer id', () => {
    const { html } = buildEmail(alertWith({ customer_id: '<script>alert(1)</script> & "co"' }));
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('& "co"');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;');
  });

  it('HTML-escapes the reason, product, service name and link', () => {
    const alert = alertWith({
      product_id: '<b>pro</b>',
      recommendation: { action: 'monitor', urgency: 'monitor', reason: 'score < 40 & calm', priority: 1 },
    });
    const { html } = buildEmail(alert, { service_name: '<R&D>', link: 'https://x.test/?a=1&b="2"' });
    expect(html).toContain('&lt;b&gt;pro&lt;/b&gt;');
    expect(html).toContain('score &lt; 40 &amp; calm');
    expect(html).toContain('Sent by &lt;R&amp;D&gt;');
    expect(html).toContain('href="https://x.test/?a=1&amp;b=&quot;2&quot;"');
    expect(html).not.toContain('<b>pro</b>');
  });

  it('adds the link to text and HTML only when given', () => {
    const withLink = buildEmail(alertWith(), { link: 'https://admin.example.com/u/42' });
    const without = buildEmail(alertWith());
    expect(withLink.text).toContain('Open subscriber: https://admin.example.com/u/42');
    expect(withLink.html).toContain('<a href="https://admin.example.com/u/42">');
    expect(without.text).not.toContain('Open subscriber');
    expect(without.html).not.toContain('<a href');
  });

  it('shows a missing product as none', () => {
    expect(buildEmail(alertWith({ product_id: null })).text).toContain('Product: none');
  });

  it('says the churn probability of the score in text and HTML when a calibration is given, and nothing without', () => {
    const { subject, text, html } = buildEmail(alertWith(), { calibration });
    expect(text).toContain('Risk band: high\nChurn probability: about 31 % chance of churning within 30 days\n');
    expect(html).toContain('with a score of <strong>62</strong>/100: about 31 % chance of churning within 30 days.</p>');
    expect(html).toContain('<th align="left" style="padding:2px 12px 2px 0">Churn probability</th><td>about 31 % chance of churning within 30 days</td>');
    expect(subject).toBe(buildEmail(alertWith()).subject);
    const without = buildEmail(alertWith());
    expect(without.text + without.html).not.toMatch(/[Cc]hurn/);
  });
});
