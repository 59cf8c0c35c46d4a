import fc from 'fast-check';
import { addSample, brierScore, calibrate, emptyHistogram, prAuc, rocAuc, evaluateHistogram, DEFAULT_CONFIG } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { calibrationPoints, prPoints, rocPoints } from '../../src/evaluation/curves.js';

const samplesArb = fc.array(fc.record({ score: fc.integer({ min: 0, max: 100 }), churned: fc.boolean() }), { maxLength: 120 });
const histogramOf = (samples: readonly { score: number; churned: boolean }[]) => {
  const h = emptyHistogram();
  for (const s of samples) addSample(h, s.score, s.churned);
  return h;
};
const distinctScores = (samples: readonly { score: number }[]) => new Set(samples.map((s) => s.score)).size;

describe('report curves', () => {
  it('ROC: one point per distinct score plus the origin, from (0,0) to (1,1), and its trapezoid area is the ROC AUC', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const h = histogramOf(samples);
        const points = rocPoints(h);
        const auc = rocAuc(h);
        if (auc === null) {
          expect(points).toEqual([]);
          return;
        }
        expect(points.length).toBe(distinctScores(samples) + 1);
        expect(points[0]).toMatchObject({ x: 0, y: 0 });
        expect(points.at(-1)).toMatchObject({ x: 1, y: 1 });
        let area = 0;
        for (let i = 1; i < points.length; i += 1) area += ((points[i]!.x - points[i - 1]!.x) * (points[i]!.y + points[i - 1]!.y)) / 2;
        expect(area).toBeCloseTo(auc, 9);
      }),
    );
  });

  it('PR: one point per distinct score, recall rising to 1, and average precision over it is the PR AUC', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const h = histogramOf(samples);
        const points = prPoints(h);
        const ap = prAuc(h);
        if (ap === null) {
          expect(points).toEqual([]);
          return;
        }
        expect(points.length).toBe(distinctScores(samples));
        expect(points.at(-1)!.x).toBe(1);
        let sum = 0;
        let recall = 0;
        for (const p of points) {
          sum += (p.x - recall) * p.y;
          recall = p.x;
        }
        expect(sum).toBeCloseTo(ap, 9);
      }),
    );
  });

  it('calibration: the deciles hold every sample, and their mean calibrated probabilities, weighted by subscribers, add up to the churners', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const h = histogramOf(samples);
        const calibration = calibrate(h, 1);
        const metrics = evaluateHistogram(h, DEFAULT_CONFIG.bands, calibration);
        const deciles = calibrationPoints(metrics, calibration);
        expect(deciles.reduce((n, d) => n + d.subscribers, 0)).toBe(samples.length);
        if (samples.length === 0) {
          expect(brierScore(h, calibration)).toBeNull();
          return;
        }
        // Isotonic regression keeps the number of churners: the probabilities sum to it.
        const expected = deciles.reduce((sum, d) => sum + (d.calibrated ?? 0) * d.subscribers, 0);
        expect(expected).toBeCloseTo(samples.filter((s) => s.churned).length, 6);
      }),
    );
  });
});
