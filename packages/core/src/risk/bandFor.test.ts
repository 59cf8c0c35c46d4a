import { describe, expect, it } from 'vitest';
import { bandFor } from './bandFor.js';

describe('bandFor', () => {
  it('puts a score of 82 in the critical band', () => {
    expect(bandFor(82)).toBe('critical');
  });

  it.each([
    [100, 'critical'],
    [80, 'critical'],
    [79, 'high'],
    [60, 'high'],
    [59, 'medium'],
    [40, 'medium'],
    [39, 'low'],
    [0, 'low'],
  ] as const)('puts a score of %i in the %s band (critical ≥ 80, high ≥ 60, medium ≥ 40)', (score, band) => {
    expect(bandFor(score)).toBe(band);
  });

  it('uses the given band thresholds', () => {
    const bands = { critical: 90, high: 70, medium: 50 };
    expect(bandFor(89, bands)).toBe('high');
    expect(bandFor(90, bands)).toBe('critical');
    expect(bandFor(49, bands)).toBe('low');
  });
});
