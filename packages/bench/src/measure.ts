/** A tiny measuring harness: best of several interleaved rounds, events per second. */
import { performance } from 'node:perf_hooks';

export interface Measurement {
  name: string;
  perSecond: number;
  nsPerOp: number;
}

/** One measurement to take: `fn` processes `ops` items per call. */
export interface MeasureSpec {
  name: string;
  ops: number;
  fn: () => unknown;
}

/**
 * Runs every spec once to warm up, then `rounds` rounds in which each spec runs once, in turn;
 * reports each one's best round, in the order given. Interleaved rather than one spec's rounds after
 * another's: on a shared VM the machine runs ~1.7 × slower for tens of seconds at a time (seen
 * 2026-11-29: JSON.parse of one body 4.1 µs, then 7.2 µs, then 4.1 µs again, in one process), so
 * a baseline measured in a fast stretch and a row in a slow one gave ratios off by 2 ×; taken in
 * turn, every row's best comes from the same stretches as the baseline's.
 */
export function measureInterleaved(specs: readonly MeasureSpec[], rounds = 5): Measurement[] {
  const sinks: unknown[] = specs.map((spec) => spec.fn()); // warm-up; results kept alive
  const best = specs.map(() => Infinity);
  for (let r = 0; r < rounds; r += 1) {
    for (let i = 0; i < specs.length; i += 1) {
      const start = performance.now();
      sinks[i] = specs[i]!.fn();
      best[i] = Math.min(best[i]!, performance.now() - start);
    }
  }
  if (sinks.includes(Symbol.for('never'))) console.log('');
  return specs.map((spec, i) => ({ name: spec.name, perSecond: (spec.ops / best[i]!) * 1000, nsPerOp: (best[i]! * 1e6) / spec.ops }));
}

const fmt = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M/s` : `${(n / 1e3).toFixed(0)} k/s`);

/** Prints measurements as a table with each one's ratio to the baseline. */
export function report(title: string, baseline: Measurement, rows: Measurement[]): void {
  console.log(`\n${title}`);
  console.log(`${'benchmark'.padEnd(58)} ${'rate'.padStart(11)} ${'ns/op'.padStart(8)} ${'× baseline'.padStart(11)}`);
  for (const m of [baseline, ...rows]) {
    const ratio = m === baseline ? 'baseline' : (m.perSecond / baseline.perSecond).toFixed(2);
    console.log(`${m.name.padEnd(58)} ${fmt(m.perSecond).padStart(11)} ${m.nsPerOp.toFixed(0).padStart(8)} ${ratio.padStart(11)}`);
  }
}
