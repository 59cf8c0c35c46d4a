/**
 * The virtual clock and its job queue. The queue is derived from the state (each subscription's next
 * cycle end or grace end, each ledger's next lot expiry), so it can never hold a stale job. Advancing
 * runs every job due in the span in time order, each at its own virtual instant.
 */
import { expireCredits } from '@tenure/core';
import { fail, ok, type Result } from './apiError.js';
import { emitCurrencyEvent, type SimContext } from './context.js';
import { expireNow, failChargeNow, renewNow } from './cycles.js';
import { createMinHeap } from '../internal/minHeap.js';
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
  /** JOB_RANK of the kind, kept on the job for the heap's comparisons. */
  rank: number;
  /** Creation order for ties: the customer's place in the scan, then the job's place among its own. */
  customerSeq: number;
  localSeq: number;
}

function subscriptionJob(sub: SubscriptionState): { at: number; kind: JobKind } | null {
  if (sub.status === 'grace') return sub.grace_expires_at === null ? null : { at: sub.grace_expires_at, kind: 'grace_expiry' };
  if (sub.status === 'expired') return null;
  if (!sub.auto_renew) return { at: sub.period_end, kind: 'expiration' };
  if (sub.fail_next_renewal !== null) return { at: sub.period_end, kind: 'billing_failure' };
  return { at: sub.period_end, kind: sub.period_type === 'TRIAL' ? 'trial_conversion' : 'renewal' };
}

/** When the customer's next expiring lot expires, or +Infinity. */
function nextCreditExpiry(customer: CustomerState): number {
  let next = Number.POSITIVE_INFINITY;
  for (const lot of customer.ledger.lots) if (lot.expires_at !== null && lot.expires_at < next) next = lot.expires_at;
  return next;
}

function liveJob(
  projectId: string,
  customer: CustomerState,
  customerSeq: number,
  localSeq: number,
  at: number,
  kind: JobKind,
  sub: SubscriptionState | null,
): LiveJob {
  return {
    at,
    kind,
    project_id: projectId,
    customer_id: customer.id,
    subscription_id: sub === null ? null : sub.id,
    customer,
    sub,
    rank: JOB_RANK[kind],
    customerSeq,
    localSeq,
  };
}

/** One customer's jobs, derived from its state: its next credit expiry, then one per live subscription. */
function customerJobs(projectId: string, customer: CustomerState, customerSeq: number, out: LiveJob[]): void {
  const expiry = nextCreditExpiry(customer);
  if (expiry !== Number.POSITIVE_INFINITY) out.push(liveJob(projectId, customer, customerSeq, 0, expiry, 'credit_expiry', null));
  const subs = customer.subscriptions;
  for (let index = 0; index < subs.length; index += 1) {
    const sub = subs[index]!;
    const job = subscriptionJob(sub);
    if (job !== null) out.push(liveJob(projectId, customer, customerSeq, index + 1, job.at, job.kind, sub));
  }
}

const compareJobs = (a: LiveJob, b: LiveJob) =>
  a.at - b.at || a.rank - b.rank || a.customerSeq - b.customerSeq || a.localSeq - b.localSeq;

function liveJobs(ctx: SimContext): LiveJob[] {
  const jobs: LiveJob[] = [];
  let customerSeq = 0;
  for (const project of ctx.state.projects.values()) {
    for (const customer of project.customers.values()) customerJobs(project.id, customer, customerSeq++, jobs);
  }
  return jobs.sort(compareJobs);
}

/** A queued job is still live when its customer's state still derives the same job. */
function isStillLive(job: LiveJob): boolean {
  if (job.sub === null) return nextCreditExpiry(job.customer) === job.at;
  const current = subscriptionJob(job.sub);
  return current !== null && current.kind === job.kind && current.at === job.at;
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

/** A guard against runaway advances (e.g. years of daily renewals for a million subscriptions). */
const MAX_JOBS_PER_ADVANCE = 10_000_000;

/**
 * Moves the clock to `target`, running every job due on the way in time order. Refuses to go back
 * in time.
 *
 * The jobs are derived from the state once, into a min-heap. A job only touches its own customer,
 * and running a job always moves that job on (the period ends later, the lot is gone, the
 * subscription expired), so after each job only its customer's jobs are derived again and pushed;
 * a popped job that its customer's state no longer derives is stale and skipped. O(n log n) per
 * advance instead of a full re-derivation per job.
 */
export function advanceTo(ctx: SimContext, target: number): Result<{ now: number; jobs_run: Job[] }> {
  if (!Number.isSafeInteger(target) || target < ctx.state.now) {
    return fail('parameter_error', 'The clock can only move forward', 'to');
  }
  const heap = createMinHeap(compareJobs, liveJobs(ctx));
  const ran: Job[] = [];
  while (ran.length < MAX_JOBS_PER_ADVANCE) {
    const next = heap.pop();
    if (next === undefined || next.at > target) {
      ctx.state.now = target;
      return ok({ now: target, jobs_run: ran });
    }
    if (!isStillLive(next)) continue;
    ctx.state.now = Math.max(ctx.state.now, next.at);
    runJob(ctx, next);
    ran.push({ at: next.at, kind: next.kind, project_id: next.project_id, customer_id: next.customer_id, subscription_id: next.subscription_id });
    const again: LiveJob[] = [];
    customerJobs(next.project_id, next.customer, next.customerSeq, again);
    for (const job of again) heap.push(job);
  }
  return fail('unprocessable_entity_error', `More than ${MAX_JOBS_PER_ADVANCE} jobs in one advance; advance in smaller steps`, 'to');
}
