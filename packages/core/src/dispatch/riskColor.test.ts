import { describe, expect, it } from 'vitest';
import { RISK_COLORS, RISK_COLOR_EMOJI, RISK_COLOR_HEX, riskColor } from './riskColor.js';

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
