/** Latency samples summarized as the percentiles the storage benches report. */

export interface LatencySummary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Given samples (ms, any order), returns the count, the median, the 99th percentile (nearest rank) and the maximum. */
export function summarize(samples: readonly number[]): LatencySummary {
  if (samples.length === 0) return { n: 0, p50: NaN, p99: NaN, max: NaN };
  const sorted = Float64Array.from(samples).sort();
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
  return { n: sorted.length, p50: rank(0.5), p99: rank(0.99), max: sorted[sorted.length - 1]! };
}

/** The median of a non-empty list (the mean of the two middle values of an even one): the alternated benches' figure of their rounds. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Formats milliseconds with a precision that suits the magnitude (µs below 1 ms). */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value < 1) return `${(value * 1000).toFixed(0)} µs`;
  if (value < 100) return `${value.toFixed(2)} ms`;
  return `${value.toFixed(0)} ms`;
}

/** Formats a rate per second (k or M). */
export function rate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return '—';
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M/s`;
  if (perSecond >= 1e4) return `${(perSecond / 1e3).toFixed(0)} k/s`;
  return `${perSecond.toFixed(0)}/s`;
}

/** Prints a table: a header row and rows of cells, the first column left-aligned, the others right-aligned. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

/** Runs the garbage collector when the bench was started with --expose-gc, so one phase's garbage is not collected during the next one's measurement. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
