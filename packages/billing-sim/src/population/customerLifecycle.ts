/**
 * One generated customer's subscriptions, walked period by period from its first purchase to the end
 * of the window: at each period the model draws what happens in it (a cancellation, maybe undone; a
 * refund; a planned pause; a plan change; nothing) and at its end whether the charge goes through,
 * fails and recovers in grace, or fails for good. Every step is the simulator's own operation
 * (`machine/subscriptionOps.ts`, `machine/cycles.ts`), run at its instant, so the webhooks are exactly the
 * simulator's. After the last subscription ends, a win-back purchase may start another.
 */
import { addDuration } from '../internal/duration.js';
import { expireNow, failChargeNow, pauseNow, renewNow, resumeNow } from '../machine/cycles.js';
import type { CustomerState, SubscriptionState } from '../machine/world.js';
import {
  cancelSubscription,
  changeSubscriptionProduct,
  newTransactionId,
  pauseSubscription,
  purchaseSubscription,
  recoverSubscription,
  refundSubscription,
  uncancelSubscription,
} from '../machine/subscriptionOps.js';
import type { CustomerTraits } from './customerTraits.js';
import { drawPlan } from './customerTraits.js';
import { ceilMinute, chance, DAY_MS, exponentialWait, integerIn, minuteInside, MINUTE_MS, MONTH_MS, withinMonths, type Uniform } from './draws.js';
import type { PopulationContext } from './populationContext.js';
import type { PopulationPlan } from './populationModel.js';

/** Why a subscription ended. */
export type EndReason = 'trial_not_converted' | 'unsubscribe' | 'billing_error' | 'refund';

/** When and why one of the customer's subscriptions ended. */
export interface Ending {
  at: number;
  reason: EndReason;
}

/**
 * What the activity model needs to know of the lifecycle, as flat lists: subscribed spans
 * `[from, to]` pairs, paused spans pairs, and declines `[start, floor reached, until]` triples.
 */
export interface LifecycleMarks {
  spans: number[];
  pauses: number[];
  declines: number[];
}

/** The lifecycle of one customer: its endings and win-backs (its events are in the context's list). */
export interface LifecycleOutcome {
  endings: Ending[];
  win_backs: number;
}

/** The walk's shared state: the context, the stream, the traits, the customer and the window's end. */
interface Walk {
  pc: PopulationContext;
  u: Uniform;
  traits: CustomerTraits;
  customer: CustomerState;
  end: number;
  marks: LifecycleMarks;
}

/**
 * Given the context, the customer's stream and traits, a new customer and the window's end, runs the
 * customer's lifecycle: every webhook goes to `pc.ctx.log` in time order (none after `end`), and
 * `marks` gets what the activity model reads. Returns the endings and win-backs.
 *
 * @example
 * const outcome = walkCustomer(pc, u, traits, customer, end, marks);
 */
export function walkCustomer(pc: PopulationContext, u: Uniform, traits: CustomerTraits, customer: CustomerState, end: number, marks: LifecycleMarks): LifecycleOutcome {
  const walk: Walk = { pc, u, traits, customer, end, marks };
  const endings: Ending[] = [];
  let at = traits.arrival;
  let plan = traits.plan;
  let trial = traits.trial;
  let offering = 'default';
  let winBacks = 0;
  for (;;) {
    pc.ctx.now = at;
    const product = pc.products.get(plan.id)!;
    const origin = { presented_offering_id: offering, country_code: traits.country, environment: 'PRODUCTION' as const, store: traits.store };
    const sub = purchaseSubscription(pc.ctx, customer, product, trial ? { years: 0, months: 0, days: pc.model.trial_days, ms: 0 } : null, newTransactionId(pc.ctx), origin);
    const ending = walkSubscription(walk, sub);
    marks.spans.push(at, ending === null ? end : ending.at);
    if (ending === null) break;
    endings.push(ending);
    // Win-back: a new purchase (never a trial) after a wait of the win-back hazard.
    const back = ceilMinute(ending.at + exponentialWait(u, pc.model.winback_per_month / MONTH_MS)) + MINUTE_MS;
    if (back >= end) break;
    at = back;
    plan = drawPlan(u, pc.model);
    trial = false;
    offering = 'winback';
    winBacks += 1;
  }
  return { endings, win_backs: winBacks };
}

const planOf = (walk: Walk, sub: SubscriptionState): PopulationPlan => walk.pc.model.plans.find((p) => p.id === sub.product_id)!;

/** Runs `step` at `at` (the simulator's clock for the operation). */
function atInstant(walk: Walk, at: number, step: () => void): void {
  walk.pc.ctx.now = at;
  step();
}

/** The voluntary cancellation hazard of a paid month of this subscription (docs/billing-sim.md, Populations). */
function cancelHazard(walk: Walk, plan: PopulationPlan, paidMonths: number, failedBefore: boolean): number {
  const m = walk.pc.model;
  const tenure = 1 + m.tenure_boost * Math.exp(-paidMonths / m.tenure_decay_months);
  const price = Math.pow(plan.price / plan.months / m.reference_monthly_price, m.price_elasticity);
  const failure = failedBefore ? m.after_failure_cancel_factor : 1;
  return Math.min(m.max_monthly_hazard, m.cancel_per_month * tenure * price * walk.traits.propensity * failure);
}

type MidPeriod = 'cancel' | 'refund' | 'pause' | 'change' | 'none';

/** What happens inside a paid period: one of the competing steps, or none. */
function drawMidPeriod(walk: Walk, plan: PopulationPlan, paidMonths: number, failedBefore: boolean): MidPeriod {
  const m = walk.pc.model;
  const chances: [MidPeriod, number][] = [
    ['cancel', withinMonths(cancelHazard(walk, plan, paidMonths, failedBefore), plan.months)],
    ['refund', m.refund_per_period],
    ['pause', walk.traits.store === 'PLAY_STORE' && plan.months === 1 ? withinMonths(m.pause_per_month, 1) : 0],
    ['change', plan.changes_to.length > 0 ? withinMonths(m.change_per_month, plan.months) : 0],
  ];
  const total = chances.reduce((sum, [, p]) => sum + p, 0);
  let x = walk.u() * Math.max(1, total);
  for (const [step, p] of chances) {
    x -= p;
    if (x < 0) return step;
  }
  return 'none';
}

/** Marks a decline of activity before a cancellation at `at` (for customers whose activity declines). */
function markDecline(walk: Walk, sub: SubscriptionState, at: number): void {
  if (!walk.traits.declines) return;
  const { decline_days: [min, max], decline_ramp_days: ramp } = walk.pc.model;
  const from = Math.max(sub.original_purchased_at, at - integerIn(walk.u, min, max) * DAY_MS);
  walk.marks.declines.push(from, Math.min(at, from + ramp * DAY_MS), Infinity);
}

/**
 * Walks one subscription from its purchase; returns how it ended, or null when it is still going
 * (active, trialing, cancelled but not yet ended, in grace, paused) at the window's end.
 */
function walkSubscription(walk: Walk, sub: SubscriptionState): Ending | null {
  const { pc, u, customer, end } = walk;
  const m = pc.model;
  let paidMonths = 0;
  let failedBefore = false;
  for (;;) {
    const start = sub.period_start;
    const periodEnd = sub.period_end;
    const plan = planOf(walk, sub);
    const paid = sub.period_type !== 'TRIAL';
    if (!paid && !chance(u, Math.pow(m.trial_conversion, walk.traits.propensity))) {
      // The trial is cancelled and ends unconverted.
      const at = minuteInside(u, start, periodEnd);
      if (at > end) return null;
      atInstant(walk, at, () => cancelSubscription(pc.ctx, customer, sub, 'UNSUBSCRIBE'));
      markDecline(walk, sub, at);
      if (periodEnd > end) return null;
      atInstant(walk, periodEnd, () => expireNow(pc.ctx, customer, sub, 'UNSUBSCRIBE'));
      return { at: periodEnd, reason: 'trial_not_converted' };
    }
    if (paid) {
      const step = drawMidPeriod(walk, plan, paidMonths, failedBefore);
      if (step === 'cancel') {
        const at = minuteInside(u, start, periodEnd);
        if (at > end) return null;
        atInstant(walk, at, () => cancelSubscription(pc.ctx, customer, sub, 'UNSUBSCRIBE'));
        markDecline(walk, sub, at);
        if (!chance(u, m.uncancel)) {
          if (periodEnd > end) return null;
          atInstant(walk, periodEnd, () => expireNow(pc.ctx, customer, sub, 'UNSUBSCRIBE'));
          return { at: periodEnd, reason: 'unsubscribe' };
        }
        const back = minuteInside(u, at, periodEnd);
        if (back > end) return null;
        atInstant(walk, back, () => uncancelSubscription(pc.ctx, customer, sub));
        if (walk.traits.declines) walk.marks.declines[walk.marks.declines.length - 1] = back;
      } else if (step === 'refund') {
        const at = minuteInside(u, start, Math.min(periodEnd, start + m.refund_window_days * DAY_MS));
        if (at > end) return null;
        atInstant(walk, at, () => refundSubscription(pc.ctx, customer, sub));
        return { at, reason: 'refund' };
      } else if (step === 'change') {
        const at = minuteInside(u, start, periodEnd);
        if (at > end) return null;
        const next = plan.changes_to[Math.floor(u() * plan.changes_to.length)]!;
        atInstant(walk, at, () => changeSubscriptionProduct(pc.ctx, customer, sub, pc.products.get(next)!, 'immediate'));
        paidMonths += (at - start) / MONTH_MS;
        continue;
      } else if (step === 'pause') {
        const at = minuteInside(u, start, periodEnd);
        if (at > end) return null;
        const [min, max] = m.pause_months;
        const resumeAt = addDuration(periodEnd, { years: 0, months: integerIn(u, min, max), days: 0, ms: 0 });
        atInstant(walk, at, () => pauseSubscription(pc.ctx, customer, sub, resumeAt));
        if (periodEnd > end) return null;
        atInstant(walk, periodEnd, () => pauseNow(pc.ctx, customer, sub));
        const resume = chance(u, m.early_resume) ? minuteInside(u, periodEnd, resumeAt) : resumeAt;
        walk.marks.pauses.push(periodEnd, Math.min(resume, end));
        if (resume > end) return null;
        atInstant(walk, resume, () => resumeNow(pc.ctx, customer, sub));
        paidMonths += plan.months;
        continue;
      }
    }
    // The period's end: the renewal (or the trial's conversion) is charged.
    if (periodEnd > end) return null;
    if (!chance(u, m.billing_failure * (failedBefore ? m.repeat_failure_factor : 1))) {
      atInstant(walk, periodEnd, () => renewNow(pc.ctx, customer, sub, false));
      if (paid) paidMonths += plan.months;
      continue;
    }
    failedBefore = true;
    const graceMs = chance(u, m.grace_share) ? m.grace_days[walk.traits.store] * DAY_MS : null;
    atInstant(walk, periodEnd, () => failChargeNow(pc.ctx, customer, sub, graceMs));
    if (graceMs === null) return { at: periodEnd, reason: 'billing_error' };
    const graceEnd = periodEnd + graceMs;
    if (chance(u, m.recovery)) {
      const at = minuteInside(u, periodEnd, graceEnd);
      if (at > end) return null;
      atInstant(walk, at, () => recoverSubscription(pc.ctx, customer, sub));
      if (paid) paidMonths += plan.months;
      continue;
    }
    if (graceEnd > end) return null;
    atInstant(walk, graceEnd, () => expireNow(pc.ctx, customer, sub, 'BILLING_ERROR'));
    return { at: graceEnd, reason: 'billing_error' };
  }
}
