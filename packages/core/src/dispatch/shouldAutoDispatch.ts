/** The auto-dispatch gate: which assessments raise an alert at once, without waiting for a batch pass. */
import type { Urgency } from '../recommend/recommendation.js';
import type { Assessment } from './delivery.js';

/**
 * Whether a priority-1 recommendation of each urgency is dispatched as soon as an event raises it:
 * only `immediate` (seed: immediate alerts go out now; `soon` and `monitor` wait for a batch pass).
 *
 * @example
 * AUTO_DISPATCH_BY_URGENCY.immediate; // true
 */
export const AUTO_DISPATCH_BY_URGENCY = {
  immediate: true,
  soon: false,
  monitor: false,
} as const satisfies Record<Urgency, boolean>;

/**
 * Given an assessment, returns whether it is dispatched at once (after the webhook that produced
 * it): when its priority-1 recommendation, the only one `planDispatch` sends, has an urgency of
 * `AUTO_DISPATCH_BY_URGENCY` (immediate). An assessment without recommendations is not. Pure.
 *
 * @example
 * const assessment = assessSubscriber(subscriber, now, config);
 * if (shouldAutoDispatch(assessment)) await send(planDispatch([assessment]));
 */
export function shouldAutoDispatch(assessment: Assessment): boolean {
  const top = assessment.recommendations.find((r) => r.priority === 1);
  return top !== undefined && AUTO_DISPATCH_BY_URGENCY[top.urgency];
}
