import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RISK_BANDS } from './risk.js';
import { bandFor } from './bandFor.js';

/** Position of a band from most to least severe. */
const severity = (score: number) => RISK_BANDS.indexOf(bandFor(score));

describe('bandFor properties', () => {
  it('never gives a less severe band to a higher score', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(severity(high)).toBeLessThanOrEqual(severity(low));
      }),
    );
  });
});
