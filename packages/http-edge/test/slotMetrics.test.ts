import { parsePrometheusText, sampleValue } from '@tenure/testkit';
import fc from 'fast-check';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { asPromMetric, SlotCounter } from '../src/metrics/slotCounter.js';
import { SlotHistogram } from '../src/metrics/slotHistogram.js';

const expose = async (...metrics: (SlotCounter | SlotHistogram)[]) => {
  const registry = new Registry();
  for (const m of metrics) registry.registerMetric(asPromMetric(m));
  return parsePrometheusText(await registry.metrics());
};

describe('SlotCounter', () => {
  it('counts per label pair, lists only the pairs counted, and reads them back', async () => {
    const c = new SlotCounter('t_total', 'help', ['a', 'b'], [['x', 'y'], ['1', '2', '3']]);
    c.add(c.slot(1, 2));
    c.add(c.slot(1, 2), 2);
    c.add(c.slot(0, 0));
    expect(c.countOf({ a: 'y', b: '3' })).toBe(3);
    const m = await expose(c);
    expect(m.get('t_total')!.samples).toHaveLength(2);
    expect(sampleValue(m, 't_total', { a: 'y', b: '3' })).toBe(3);
    expect(sampleValue(m, 't_total', { a: 'x', b: '1' })).toBe(1);
  });

  it('lists the one series of a counter without labels before it counts, as prom-client does', async () => {
    const c = new SlotCounter('u_total', 'help', [], []);
    expect(sampleValue(await expose(c), 'u_total', {})).toBe(0);
    c.add(c.slot(), 2);
    expect(sampleValue(await expose(c), 'u_total', {})).toBe(2);
  });
});

describe('SlotHistogram', () => {
  it('puts a value equal to a bound in that bucket (le is ≤)', async () => {
    const h = new SlotHistogram('t_seconds', 'help', ['op'], [['a']], [0.1, 1]);
    h.observe(0, 0.1);
    h.observe(0, 5);
    const m = await expose(h);
    expect(sampleValue(m, 't_seconds_bucket', { op: 'a', le: '0.1' })).toBe(1);
    expect(sampleValue(m, 't_seconds_bucket', { op: 'a', le: '1' })).toBe(1);
    expect(sampleValue(m, 't_seconds_bucket', { op: 'a', le: '+Inf' })).toBe(2);
    expect(sampleValue(m, 't_seconds_sum', { op: 'a' })).toBeCloseTo(5.1);
  });

  it('any observations give cumulative buckets, +Inf = _count = their number and _sum = their sum, per slot', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.double({ min: 0, max: 20, noNaN: true })), { maxLength: 60 }), async (obs) => {
        const h = new SlotHistogram('p_seconds', 'help', ['k'], [['a', 'b', 'c']]);
        for (const [slot, v] of obs) h.observe(slot, v);
        const m = await expose(h); // the strict parser checks cumulative buckets and +Inf = _count
        ['a', 'b', 'c'].forEach((k, slot) => {
          const mine = obs.filter(([s]) => s === slot).map(([, v]) => v);
          expect(sampleValue(m, 'p_seconds_count', { k })).toBe(mine.length);
          expect(sampleValue(m, 'p_seconds_sum', { k })).toBeCloseTo(mine.reduce((a, b) => a + b, 0), 6);
        });
      }),
    );
  });
});
