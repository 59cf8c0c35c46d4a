/** A tiny measuring harness: best of several rounds, events per second. */
import { performance } from 'node:perf_hooks';

export interface Measurement {
  name: string;
  perSecond: number;
  nsPerOp: number;
}

/** Runs `fn` (which processes `ops` items) `rounds` times after one warm-up; reports the best round. */
export function measure(name: string, ops: number, fn: () => unknown, rounds = 5): Measurement {
  let sink: unknown = fn(); // warm-up, and keep the result alive so the work is not optimised away
  let best = Infinity;
  for (let r = 0; r < rounds; r += 1) {
    const start = performance.now();
    sink = fn();
    best = Math.min(best, performance.now() - start);
  }
  if (sink === Symbol.for('never')) console.log('');
  return { name, perSecond: (ops / best) * 1000, nsPerOp: (best * 1e6) / ops };
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
