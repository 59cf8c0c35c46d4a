/** Equality of two assessments of one subscriber: what a store must re-materialize when it changes. */
import type { Assessment } from '../dispatch/delivery.js';

/**
 * Given two assessments, returns whether they say the same thing: score, band, every breakdown
 * signal and every recommendation (action, urgency, reason, priority). Pure.
 *
 * @example
 * sameAssessment(assessSubscriber(s, now), assessSubscriber(s, now + 1)); // usually true
 */
export function sameAssessment(a: Assessment, b: Assessment): boolean {
  // The state as assessed moves with time too (a promotional grant's end), and a store keeps it in its row.
  if (a.subscriber.state !== b.subscriber.state) return false;
  const x = a.risk;
  const y = b.risk;
  if (x.score !== y.score || x.band !== y.band) return false;
  const bx = x.breakdown;
  const by = y.breakdown;
  if (
    bx.state !== by.state ||
    bx.billing_failures !== by.billing_failures ||
    bx.renewals !== by.renewals ||
    bx.inactivity !== by.inactivity ||
    bx.trial_conversion !== by.trial_conversion ||
    bx.cancel_reason !== by.cancel_reason
  ) {
    return false;
  }
  if (a.recommendations.length !== b.recommendations.length) return false;
  for (let i = 0; i < a.recommendations.length; i++) {
    const r = a.recommendations[i]!;
    const s = b.recommendations[i]!;
    if (r.action !== s.action || r.urgency !== s.urgency || r.reason !== s.reason || r.priority !== s.priority) return false;
  }
  return true;
}
