/**
 * The virtual clock and its job queue. The queue is derived from the state (each subscription's next
 * cycle end or grace end, each ledger's next lot expiry), so it can never hold a stale job. Advancing
 * runs every job due in the span in time order, each at its own virtual instant.
 */
import { expireCredits } from '@tenure/core';
import { fail, ok, type Result } from './apiError.js';
import { emitCurrencyEvent, type SimContext } from './context.js';
import { expireNow, failChargeNow, renewNow } from './cycles.js';
import type { CustomerState, SubscriptionState } from './state.js';

/** What a scheduled job does. */
export type JobKind = 'credit_expiry' | 'grace_expiry' | 'expiration' | 'billing_failure' | 'trial_conversion' | 'renewal';

/** Which job runs first when several are due at the same instant (cycle-end credits expire first). */
export const JOB_RANK = {
  credit_expiry: 0,
  grace_expiry: 1,
  expiration: 2,
  billing_failure: 3,
  trial_conversion: 4,
  renewal: 4,
} as const satisfies Record<JobKind, number>;

export interface Job {
  at: number;
  kind: JobKind;
  project_id: string;
  customer_id: string;
  subscription_id: string | null;
}

interface LiveJob extends Job {
  customer: CustomerState;
  sub: SubscriptionState | null;
  order: number;
}

function subscriptionJob(sub: SubscriptionState): { at: number; kind: JobKind } | null {
  if (sub.status === 'grace') return sub.grace_expires_at === null ? null : { at: sub.grace_expires_at, kind: 'grace_expiry' };
  if (sub.status === 'expired') return null;
  if (!sub.auto_renew) return { at: sub.period_end, kind: 'expiration' };
  if (sub.fail_next_renewal !== null) return { at: sub.period_end, kind: 'billing_failure' };
  return { at: sub.period_end, kind: sub.period_type === 'TRIAL' ? 'trial_conversion' : 'renewal' };
}

function liveJobs(ctx: SimContext): LiveJob[] {
  const jobs: LiveJob[] = [];
  let order = 0;
  for (const project of ctx.state.projects.values()) {
    for (const customer of project.customers.values()) {
      const base = { project_id: project.id, customer_id: customer.id, customer };
      let nextExpiry = Number.POSITIVE_INFINITY;
      for (const lot of customer.ledger.lots) if (lot.expires_at !== null) nextExpiry = Math.min(nextExpiry, lot.expires_at);
      if (Number.isFinite(nextExpiry)) {
        jobs.push({ ...base, at: nextExpiry, kind: 'credit_expiry', subscription_id: null, sub: null, order: order++ });
      }
      for (const sub of customer.subscriptions) {
        const job = subscriptionJob(sub);
        if (job !== null) jobs.push({ ...base, ...job, subscription_id: sub.id, sub, order: order++ });
      }
    }
  }
  return jobs.sort((a, b) => a.at - b.at || JOB_RANK[a.kind] - JOB_RANK[b.kind] || a.order - b.order);
}

/** The jobs waiting on the clock, soonest first. */
export function pendingJobs(ctx: SimContext): Job[] {
  return liveJobs(ctx).map(({ at, kind, project_id, customer_id, subscription_id }) => ({ at, kind, project_id, customer_id, subscription_id }));
}

function runJob(ctx: SimContext, job: LiveJob): void {
  const { customer, sub } = job;
  switch (job.kind) {
    case 'credit_expiry': {
      const { ledger, entries } = expireCredits(customer.ledger, ctx.state.now);
      customer.ledger = ledger;
      emitCurrencyEvent(ctx, customer, entries, null, null);
      return;
    }
    case 'grace_expiry':
      if (sub !== null) expireNow(ctx, customer, sub, 'BILLING_ERROR');
      return;
    case 'expiration':
      if (sub !== null) expireNow(ctx, customer, sub, sub.cancel_reason ?? 'UNSUBSCRIBE');
      return;
    case 'billing_failure':
      if (sub !== null) failChargeNow(ctx, customer, sub, sub.fail_next_renewal?.grace_ms ?? null);
      return;
    case 'trial_conversion':
    case 'renewal':
      if (sub !== null) renewNow(ctx, customer, sub, false);
      return;
  }
}

const MAX_JOBS_PER_ADVANCE = 100_000;

/**
 * Moves the clock to `target`, running every job due on the way in time order. Refuses to go back
 * in time.
 */
export function advanceTo(ctx: SimContext, target: number): Result<{ now: number; jobs_run: Job[] }> {
  if (!Number.isSafeInteger(target) || target < ctx.state.now) {
    return fail('parameter_error', 'The clock can only move forward', 'to');
  }
  const ran: Job[] = [];
  for (let i = 0; i < MAX_JOBS_PER_ADVANCE; i++) {
    const next = liveJobs(ctx)[0];
    if (next === undefined || next.at > target) {
      ctx.state.now = target;
      return ok({ now: target, jobs_run: ran });
    }
    ctx.state.now = Math.max(ctx.state.now, next.at);
    runJob(ctx, next);
    ran.push({ at: next.at, kind: next.kind, project_id: next.project_id, customer_id: next.customer_id, subscription_id: next.subscription_id });
  }
  return fail('unprocessable_entity_error', `More than ${MAX_JOBS_PER_ADVANCE} jobs in one advance; advance in smaller steps`, 'to');
}
