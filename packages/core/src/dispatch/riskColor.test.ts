import { describe, expect, it } from 'vitest';
import { NOW, makeSubscriber } from '../../test/subscribers.js';
import { resolveConfig } from '../config/defaultConfig.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import { buildChatMessage } from './buildChatMessage.js';
import { buildEmail } from './buildEmail.js';
import { RISK_COLORS, RISK_COLOR_EMOJI, RISK_COLOR_HEX, colorForBand, riskColor } from './riskColor.js';

describe('riskColor', () => {
  it.each([
    [100, 'red'],
    [80, 'red'],
    [79, 'orange'],
    [60, 'orange'],
    [59, 'yellow'],
    [40, 'yellow'],
    [39, 'green'],
    [0, 'green'],
  ] as const)('marks a score of %i %s (red ≥ 80, orange ≥ 60, yellow ≥ 40, green below)', (score, color) => {
    expect(riskColor(score)).toBe(color);
  });

  it('gives each colour a distinct six-digit hex code', () => {
    const hexes = RISK_COLORS.map((c) => RISK_COLOR_HEX[c]);
    for (const hex of hexes) expect(hex).toMatch(/^#[0-9A-F]{6}$/i);
    expect(new Set(hexes).size).toBe(RISK_COLORS.length);
  });

  it('gives each colour the Slack emoji of its colour', () => {
    expect(RISK_COLOR_EMOJI).toEqual({
      red: ':red_circle:',
      orange: ':large_orange_circle:',
      yellow: ':large_yellow_circle:',
      green: ':large_green_circle:',
    });
  });
});

describe('colours under configured bands', () => {
  const config = resolveConfig({ bands: { critical: 90 } });
  // billing_issue 80, no failures, active now: a score of exactly 80.
  const subscriber = makeSubscriber({ state: 'billing_issue' });
  const risk = scoreSubscriber(subscriber, NOW, config);
  const alert = {
    customer_id: subscriber.customer_id,
    state: subscriber.state,
    product_id: subscriber.product_id,
    risk,
    recommendation: { action: 'billing_failure_alert', urgency: 'immediate', reason: 'r', priority: 1 } as const,
  };

  it('with bands.critical = 90, a score of 80 is high and orange, not red', () => {
    expect(risk).toMatchObject({ score: 80, band: 'high' });
    expect(riskColor(80, config)).toBe('orange');
    expect(colorForBand(risk.band)).toBe('orange');
  });

  it('paints the chat attachment, the score emoji and the email by the configured band', () => {
    const chat = buildChatMessage(alert);
    expect(chat.attachments[0]?.color).toBe(RISK_COLOR_HEX.orange);
    expect(chat.text).toContain(RISK_COLOR_EMOJI.orange);
    const email = buildEmail(alert);
    expect(email.html).toContain(RISK_COLOR_HEX.orange);
    expect(email.html).not.toContain(RISK_COLOR_HEX.red);
    expect(email.text).toContain('80/100 (orange)');
  });
});
