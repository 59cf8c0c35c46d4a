import fc from 'fast-check';
import { Histogram, Registry, type Metric } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { asPromMetric } from '../src/metrics/slotCounter.js';
import { SlotHistogram } from '../src/metrics/slotHistogram.js';

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The exposition of one metric in a registry of its own. */
async function exposition(metric: Metric): Promise<string> {
  const registry = new Registry();
  registry.registerMetric(metric);
  return registry.metrics();
}

describe('SlotHistogram against prom-client’s own Histogram', () => {
  // Durations as the simulator's outbox reports them (whole and fractional milliseconds, in
  // seconds), bucket bounds exactly, and values above every bucket.
  const value = fc.oneof(fc.integer({ min: 0, max: 60_000 }).map((ms) => ms / 1000), fc.constantFrom(...BUCKETS), fc.double({ min: 0, max: 100, noNaN: true }));

  it('without labels: the same exposition text for the same observations, none included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(value, { maxLength: 200 }), async (values) => {
        const slots = new SlotHistogram('d_seconds', 'Durations.', [], [], BUCKETS);
        const reference = new Histogram({ name: 'd_seconds', help: 'Durations.', buckets: BUCKETS, registers: [] });
        for (const v of values) {
          slots.observe(0, v);
          reference.observe(v);
        }
        expect(await exposition(asPromMetric(slots))).toBe(await exposition(reference));
      }),
      { numRuns: 100 },
    );
  });

  it('with labels: the same series, each with the same samples, for observations in any order', async () => {
    const kinds = ['a', 'b', 'c'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), value), { maxLength: 200 }), async (observations) => {
        const slots = new SlotHistogram('d_seconds', 'Durations.', ['kind'], [kinds], BUCKETS);
        const reference = new Histogram({ name: 'd_seconds', help: 'Durations.', labelNames: ['kind'], buckets: BUCKETS, registers: [] });
        for (const [k, v] of observations) {
          slots.observe(k, v);
          reference.observe({ kind: kinds[k]! }, v);
        }
        // prom-client lists series in first-observed order, the slots in label order: compare the lines sorted.
        const lines = async (m: Metric) => (await exposition(m)).split('\n').sort();
        expect(await lines(asPromMetric(slots))).toEqual(await lines(reference));
      }),
      { numRuns: 100 },
    );
  });

  it('starts over on reset, the unlabelled series still listed at zero', async () => {
    const slots = new SlotHistogram('d_seconds', 'Durations.', [], [], [1, 2]);
    slots.observe(0, 1.5);
    expect(await exposition(asPromMetric(slots))).toContain(`d_seconds_bucket{le="2"} 1`);
    slots.reset();
    const text = await exposition(asPromMetric(slots));
    expect(text).toContain('d_seconds_count 0');
    expect(text).toContain(`d_seconds_bucket{le="+Inf"} 0`);
  });
});
