// bandRange against the core's bandFor: a score is in the range exactly when it passes the
// minimum and falls in the band, for any thresholds (also unordered ones).
import fc from 'fast-check';
import { RISK_BANDS, bandFor } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { bandRange } from './bandRange.js';

const score = fc.oneof(fc.integer({ min: -10, max: 110 }), fc.double({ min: -10, max: 110, noNaN: true }));

describe('bandRange (property)', () => {
  it('contains a score exactly when bandFor puts it in the band and it reaches the minimum', () => {
    fc.assert(
      fc.property(
        score,
        fc.option(fc.constantFrom(...RISK_BANDS), { nil: undefined }),
        score,
        fc.record({ critical: score, high: score, medium: score }),
        (s, band, minScore, bands) => {
          const { minScore: lo, maxScore: hi } = bandRange(band, minScore, bands);
          const inRange = s >= lo && (hi === null || s < hi);
          expect(inRange).toBe(s >= minScore && (band === undefined || bandFor(s, bands) === band));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('bandRange', () => {
  it('maps each default band to its score range', () => {
    const bands = { critical: 80, high: 60, medium: 40 };
    expect(bandRange('critical', 0, bands)).toEqual({ minScore: 80, maxScore: null });
    expect(bandRange('high', 0, bands)).toEqual({ minScore: 60, maxScore: 80 });
    expect(bandRange('medium', 50, bands)).toEqual({ minScore: 50, maxScore: 60 });
    expect(bandRange('low', 0, bands)).toEqual({ minScore: 0, maxScore: 40 });
    expect(bandRange(undefined, 60, bands)).toEqual({ minScore: 60, maxScore: null });
  });
});
