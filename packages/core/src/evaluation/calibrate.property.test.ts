import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brierScore, calibrate, churnProbability } from './calibrate.js';
import { addSample, emptyHistogram } from './scoreHistogram.js';

const samplesArb = fc.array(fc.record({ score: fc.integer({ min: 0, max: 100 }), churned: fc.boolean() }), { maxLength: 80 });

function histogramOf(samples: readonly { score: number; churned: boolean }[]) {
  const h = emptyHistogram();
  for (const s of samples) addSample(h, s.score, s.churned);
  return h;
}

describe('calibrate', () => {
  it('is monotone: the probability never falls as the score rises, and stays within 0..1', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const { probabilities } = calibrate(histogramOf(samples), 1);
        for (let s = 1; s <= 100; s += 1) expect(probabilities[s]!).toBeGreaterThanOrEqual(probabilities[s - 1]!);
        for (const p of probabilities) expect(p >= 0 && p <= 1).toBe(true);
      }),
    );
  });

  it('keeps the number of churners: the fitted probabilities of the samples sum to it', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const calibration = calibrate(histogramOf(samples), 1);
        const expected = samples.reduce((sum, s) => sum + churnProbability(calibration, s.score), 0);
        expect(expected).toBeCloseTo(samples.filter((s) => s.churned).length, 9);
      }),
    );
  });

  it('fits at least as well as the constant base rate', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const h = histogramOf(samples);
        const fitted = calibrate(h, 1);
        const brier = brierScore(h, fitted);
        if (samples.length === 0) {
          expect(brier).toBeNull();
          return;
        }
        const base = samples.filter((s) => s.churned).length / samples.length;
        const constant = { ...fitted, probabilities: fitted.probabilities.map(() => base) };
        expect(brier!).toBeLessThanOrEqual(brierScore(h, constant)! + 1e-12);
      }),
    );
  });

  it('returns the raw churn rates where they already rise with the score', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 5 }), (scores, per) => {
        const sorted = [...scores].sort((a, b) => a - b);
        const h = emptyHistogram();
        // Score i-th gets i churners of `sorted.length` samples: rates rise with the score.
        sorted.forEach((score, i) => {
          for (let k = 0; k < sorted.length * per; k += 1) addSample(h, score, k < i * per);
        });
        const { probabilities } = calibrate(h, 1);
        sorted.forEach((score, i) => expect(probabilities[score]).toBeCloseTo(i / sorted.length, 12));
      }),
    );
  });
});
