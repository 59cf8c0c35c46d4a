import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CountedHistogram } from '../src/metrics/countedHistogram.js';

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The exposition of one histogram named `name` in a registry of its own. */
async function exposition(histogram: Histogram): Promise<string> {
  const registry = new Registry();
  registry.registerMetric(histogram);
  return registry.metrics();
}

describe('CountedHistogram', () => {
  // Durations as the outbox reports them (whole and fractional milliseconds, in seconds), bucket
  // bounds exactly, and values above every bucket.
  const value = fc.oneof(fc.integer({ min: 0, max: 60_000 }).map((ms) => ms / 1000), fc.constantFrom(...BUCKETS), fc.double({ min: 0, max: 100, noNaN: true }));

  it('exports what prom-client’s own histogram exports for the same observations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(value, { maxLength: 200 }), async (values) => {
        const counted = new CountedHistogram({ name: 'd_seconds', help: 'Durations.', buckets: BUCKETS });
        const reference = new Histogram({ name: 'd_seconds', help: 'Durations.', buckets: BUCKETS, registers: [] });
        for (const v of values) {
          counted.record(v);
          reference.observe(v);
        }
        expect(await exposition(counted)).toBe(await exposition(reference));
        expect(await counted.get()).toEqual(await reference.get());
      }),
      { numRuns: 100 },
    );
  });

  it('starts over on reset, takes observe(number) as record, and refuses labels it does not have', async () => {
    const counted = new CountedHistogram({ name: 'd_seconds', help: 'Durations.', buckets: [1, 2] });
    counted.observe(1.5);
    counted.record(Number.NaN);
    const text = await exposition(counted);
    expect(text).toContain(`d_seconds_bucket{le="2"} 1`);
    expect(() => (counted.observe as (labels: object, value: number) => void)({ route: "x" }, 1)).toThrow(/no labels/);
    counted.reset();
    expect(await exposition(counted)).toContain('d_seconds_count 0');
  });
});
