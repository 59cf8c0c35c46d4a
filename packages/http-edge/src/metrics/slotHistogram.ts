/**
 * A histogram over a fixed, bounded set of label values, kept in flat typed arrays (see
 * `SlotCounter` for why): `observe(slot, seconds)` finds the bucket with a short linear scan and
 * allocates nothing; cumulative bucket counts, `_sum` and `_count` are built at scrape time.
 */
import { LabelSlots } from './labelSlots.js';
import type { CollectableMetric, SampleValue } from './slotCounter.js';

/** Latency buckets in seconds: 0.5 ms to 10 s (a webhook is ~0.1 ms of CPU, a slow store query seconds). */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/**
 * A histogram whose label values are all known up front; slots as in `SlotCounter`, and like it a
 * scrape lists the combinations observed at least once, or the one series of a histogram without
 * labels always (zero buckets before the first observation, as prom-client's own).
 *
 * @example
 * const h = new SlotHistogram('tenure_store_operation_duration_seconds', 'Store calls', ['operation'], [['apply', 'at_risk']]);
 * h.observe(0, 0.0004); // apply took 0.4 ms
 */
export class SlotHistogram implements CollectableMetric {
  readonly type = 'histogram' as const;
  private readonly buckets: readonly number[];
  private readonly slots: LabelSlots;
  /** Per slot: one count per bucket (not cumulative) and one for +Inf. */
  private readonly bucketCounts: Float64Array;
  private readonly sums: Float64Array;
  private readonly totals: Float64Array;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly labelValues: readonly (readonly string[])[],
    buckets: readonly number[] = LATENCY_BUCKETS,
  ) {
    this.buckets = buckets;
    this.slots = new LabelSlots(labelNames, labelValues);
    this.bucketCounts = new Float64Array(this.slots.size * (buckets.length + 1));
    this.sums = new Float64Array(this.slots.size);
    this.totals = new Float64Array(this.slots.size);
  }

  /** The slot of the combination at these positions (one per label, in label order). */
  slot(...positions: number[]): number {
    return this.slots.slot(positions);
  }

  /** Records one observation (seconds) in a slot. */
  observe(slot: number, value: number): void {
    const buckets = this.buckets;
    let b = 0;
    while (b < buckets.length && value > buckets[b]!) b++;
    this.bucketCounts[slot * (buckets.length + 1) + b]! += 1;
    this.sums[slot]! += value;
    this.totals[slot]! += 1;
  }

  /** How many observations a combination has (tests, summaries). */
  countOf(labels: Record<string, string>): number {
    const i = this.slots.indexOf(labels);
    return i === -1 ? 0 : this.totals[i]!;
  }

  async get() {
    const values: SampleValue[] = [];
    const width = this.buckets.length + 1;
    const always = this.slots.listedAlways;
    this.totals.forEach((count, slot) => {
      if (count === 0 && !always) return;
      const labels = this.slots.labels[slot]!;
      let cumulative = 0;
      for (let b = 0; b < width; b++) {
        cumulative += this.bucketCounts[slot * width + b]!;
        const le = b < this.buckets.length ? String(this.buckets[b]) : '+Inf';
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels, value: this.sums[slot]!, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' as const };
  }

  reset(): void {
    this.bucketCounts.fill(0);
    this.sums.fill(0);
    this.totals.fill(0);
  }
}
