import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bandTable, thresholdTable } from './thresholdMetrics.js';
import { prAuc, rocAuc } from './rankMetrics.js';
import { addSample, emptyHistogram, type ScoreHistogram } from './scoreHistogram.js';

type Sample = { score: number; churned: boolean };
const sampleArb = fc.record({ score: fc.integer({ min: 0, max: 100 }), churned: fc.boolean() });
// Few distinct scores, so ties are common.
const tiedSampleArb = fc.record({ score: fc.constantFrom(0, 10, 40, 60, 80, 100), churned: fc.boolean() });
const samplesArb = fc.oneof(fc.array(sampleArb, { maxLength: 60 }), fc.array(tiedSampleArb, { maxLength: 60 }));

function histogramOf(samples: readonly Sample[]): ScoreHistogram {
  const h = emptyHistogram();
  for (const s of samples) addSample(h, s.score, s.churned);
  return h;
}

/** Every (churner, stayer) pair: 1 when the churner scores higher, 1/2 on a tie. */
function bruteAuc(samples: readonly Sample[]): number | null {
  const pos = samples.filter((s) => s.churned);
  const neg = samples.filter((s) => !s.churned);
  if (pos.length === 0 || neg.length === 0) return null;
  let sum = 0;
  for (const p of pos) for (const n of neg) sum += p.score > n.score ? 1 : p.score === n.score ? 0.5 : 0;
  return sum / (pos.length * neg.length);
}

/** Average precision by sorting: each distinct score a threshold. */
function bruteAp(samples: readonly Sample[]): number | null {
  const total = samples.filter((s) => s.churned).length;
  if (total === 0) return null;
  const scores = [...new Set(samples.map((s) => s.score))].sort((a, b) => b - a);
  let ap = 0;
  let prevRecall = 0;
  for (const t of scores) {
    const flagged = samples.filter((s) => s.score >= t);
    const tp = flagged.filter((s) => s.churned).length;
    const recall = tp / total;
    ap += (recall - prevRecall) * (tp / flagged.length);
    prevRecall = recall;
  }
  return ap;
}

describe('rocAuc and prAuc', () => {
  it('match a brute-force reference on small inputs (ties included)', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const h = histogramOf(samples);
        const auc = rocAuc(h);
        const ap = prAuc(h);
        const refAuc = bruteAuc(samples);
        const refAp = bruteAp(samples);
        if (refAuc === null) expect(auc).toBeNull();
        else expect(auc).toBeCloseTo(refAuc, 12);
        if (refAp === null) expect(ap).toBeNull();
        else expect(ap).toBeCloseTo(refAp, 12);
      }),
    );
  });

  it('gives 1 for a perfect ranking and 0 (ROC) for a reversed one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), (cut, p, n) => {
        const perfect = emptyHistogram();
        const reversed = emptyHistogram();
        for (let i = 0; i < p; i += 1) {
          addSample(perfect, cut + (i % (101 - cut)), true);
          addSample(reversed, i % cut, true);
        }
        for (let i = 0; i < n; i += 1) {
          addSample(perfect, i % cut, false);
          addSample(reversed, cut + (i % (101 - cut)), false);
        }
        expect(rocAuc(perfect)).toBe(1);
        expect(prAuc(perfect)).toBeCloseTo(1, 12);
        expect(rocAuc(reversed)).toBe(0);
      }),
    );
  });

  it('stays within 0..1 and does not depend on sample order', () => {
    fc.assert(
      fc.property(samplesArb, fc.func(fc.integer()), (samples, key) => {
        const shuffled = [...samples].sort((a, b) => key(a) - key(b));
        const h = histogramOf(samples);
        expect(rocAuc(histogramOf(shuffled))).toBe(rocAuc(h));
        for (const v of [rocAuc(h), prAuc(h)]) if (v !== null) expect(v >= 0 && v <= 1 + 1e-12).toBe(true);
      }),
    );
  });
});

describe('thresholdTable and bandTable', () => {
  it('recall never rises as the threshold rises, and each band sums to the whole', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const h = histogramOf(samples);
        const rows = thresholdTable(h);
        for (let s = 1; s <= 100; s += 1) expect(rows[s]!.flagged).toBeLessThanOrEqual(rows[s - 1]!.flagged);
        expect(rows[0]!.flagged).toBe(samples.length);
        const bands = bandTable(h, { critical: 80, high: 60, medium: 40 });
        expect(bands.reduce((sum, b) => sum + b.subscribers, 0)).toBe(samples.length);
        expect(bands.reduce((sum, b) => sum + b.churned, 0)).toBe(samples.filter((s) => s.churned).length);
      }),
    );
  });
});
