/**
 * The slots of a metric over a fixed, bounded set of label values: every combination of the values
 * gets an index into the metric's typed arrays (the last label varies fastest), computed from label
 * positions on the hot path and read back as labels at scrape time. `SlotCounter` and
 * `SlotHistogram` keep their counts by these slots.
 */

/** Every combination of the label values, in slot order (the last label varies fastest). */
export function labelCombinations(names: readonly string[], values: readonly (readonly string[])[]): Record<string, string>[] {
  let combos: Record<string, string>[] = [{}];
  names.forEach((name, i) => {
    combos = combos.flatMap((combo) => (values[i] ?? []).map((value) => ({ ...combo, [name]: value })));
  });
  return combos;
}

/**
 * The combinations of `names` over `values`, each at its slot.
 *
 * @example
 * const slots = new LabelSlots(['type', 'outcome'], [['RENEWAL', 'other'], ['applied', 'duplicate']]);
 * slots.slot([0, 1]); // 1: RENEWAL, duplicate
 * slots.labels[1]; // { type: 'RENEWAL', outcome: 'duplicate' }
 */
export class LabelSlots {
  /** The labels of each slot. */
  readonly labels: readonly Record<string, string>[];
  /**
   * Whether a scrape lists every slot, counted or not: only a metric without labels (its one series
   * is listed from the start, as prom-client's own); a labelled one lists the slots counted.
   */
  readonly listedAlways: boolean;
  private readonly strides: number[];

  constructor(
    readonly names: readonly string[],
    values: readonly (readonly string[])[],
  ) {
    this.labels = labelCombinations(names, values);
    this.listedAlways = names.length === 0;
    this.strides = values.map((_, i) => values.slice(i + 1).reduce((n, v) => n * v.length, 1));
  }

  /** How many slots there are. */
  get size(): number {
    return this.labels.length;
  }

  /** The slot of the combination at these positions (one per label, in label order). */
  slot(positions: readonly number[]): number {
    return positions.reduce((slot, p, i) => slot + p * (this.strides[i] ?? 0), 0);
  }

  /** The slot of a combination given by label values, or -1 when none has them. */
  indexOf(labels: Record<string, string>): number {
    return this.labels.findIndex((set) => this.names.every((name) => set[name] === labels[name]));
  }
}
