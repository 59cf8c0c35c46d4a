/**
 * A generated customer's app activity: sessions at its engagement rate while it is subscribed,
 * fewer while paused or on a quiet spell, and, for customers whose activity declines before they
 * cancel, a fall to almost nothing weeks before the cancellation (a week's ramp; back to normal if
 * the cancellation is undone). Drawn by thinning a Poisson process: candidate sessions at the full rate, each kept
 * with the probability of the level at its instant.
 */
import type { LifecycleMarks } from './customerLifecycle.js';
import type { CustomerTraits } from './customerTraits.js';
import { DAY_MS, exponentialWait, integerIn, MONTH_MS, type Uniform } from './draws.js';
import type { PopulationModel } from './populationModel.js';

/** Is `at` inside one of the flat `[from, to)` pairs? */
function inside(pairs: readonly number[], at: number): boolean {
  for (let i = 0; i < pairs.length; i += 2) if (at >= pairs[i]! && at < pairs[i + 1]!) return true;
  return false;
}

/** The activity level (share of the engaged rate) at `at`, inside a subscribed span. */
function levelAt(model: PopulationModel, marks: LifecycleMarks, dips: readonly number[], at: number): number {
  let level = inside(marks.pauses, at) ? model.paused_level : 1;
  const d = marks.declines;
  for (let i = 0; i < d.length; i += 3) {
    const from = d[i]!;
    const floorAt = d[i + 1]!;
    const until = d[i + 2]!;
    if (at < from || at >= until) continue;
    const ramp = at >= floorAt ? model.decline_floor : 1 - ((1 - model.decline_floor) * (at - from)) / Math.max(1, floorAt - from);
    level = Math.min(level, ramp);
  }
  if (inside(dips, at)) level *= model.dip_level;
  return level;
}

/**
 * Given the stream, the model, the traits, the lifecycle's marks and the window's end, appends the
 * customer's activity instants (whole seconds, ascending, inside its subscribed spans, before the
 * window's end) to `out`. Pure apart from the stream and `out`.
 *
 * @example
 * const activity: number[] = []; drawActivity(u, model, traits, marks, end, activity);
 */
export function drawActivity(u: Uniform, model: PopulationModel, traits: CustomerTraits, marks: LifecycleMarks, end: number, out: number[]): void {
  const spans = marks.spans;
  if (spans.length === 0) return;
  // Quiet spells over the whole customer life, a Poisson process of `dip_per_month`.
  const dips: number[] = [];
  const [dipMin, dipMax] = model.dip_days;
  for (let at = spans[0]! + exponentialWait(u, model.dip_per_month / MONTH_MS); at < end; at += exponentialWait(u, model.dip_per_month / MONTH_MS)) {
    dips.push(at, at + integerIn(u, dipMin, dipMax) * DAY_MS);
  }
  const perMs = traits.engagement / (7 * DAY_MS);
  for (let i = 0; i < spans.length; i += 2) {
    const from = spans[i]!;
    const to = spans[i + 1]!;
    for (let at = from + exponentialWait(u, perMs); at < to; at += exponentialWait(u, perMs)) {
      const level = levelAt(model, marks, dips, at);
      if (level < 1 && u() >= level) continue;
      const second = Math.ceil(at / 1000) * 1000;
      if (second >= to) break;
      if (out.length === 0 || out[out.length - 1]! < second) out.push(second);
    }
  }
}
