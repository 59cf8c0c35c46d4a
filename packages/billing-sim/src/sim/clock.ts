/**
 * The virtual clock and its job queue. The queue is derived from the state (each subscription's next
 * cycle end or grace end, each ledger's next lot expiry), so it can never hold a stale job. Advancing
 * runs every job due in the span in time order, each at its own virtual instant.
 */
import { expireCredits, nextCreditExpiry } from '@tenure/core';
import { fail, ok, type Result } from './apiError.js';
import { customerOf, emitCurrencyEvent, type SimContext } from './context.js';
import { pmapForEach } from './persistentMap.js';
import { expireNow, failChargeNow, pauseNow, renewNow, resumeNow, TEMPORARY_GRANT_EXPIRATION_REASON } from './cycles.js';
import { createSortedRunQueue } from '../internal/minHeap.js';
import type { CustomerState, SubscriptionState, World } from './state.js';

/** What a scheduled job does. */
export type JobKind =
  | 'credit_expiry'
  | 'grace_expiry'
  | 'expiration'
  | 'temporary_expiry'
  | 'pause'
  | 'billing_failure'
  | 'trial_conversion'
  | 'renewal'
  | 'resume';

/** Which job runs first when several are due at the same instant (cycle-end credits expire first). */
export const JOB_RANK = {
  credit_expiry: 0,
  grace_expiry: 1,
  expiration: 2,
  temporary_expiry: 2,
  pause: 2,
  billing_failure: 3,
  trial_conversion: 4,
  renewal: 4,
  resume: 4,
} as const satisfies Record<JobKind, number>;

export interface Job {
  at: number;
  kind: JobKind;
  project_id: string;
  customer_id: string;
  subscription_id: string | null;
}

interface LiveJob extends Job {
  /** The subscription's place in its customer's list (0 for a credit expiry, index + 1 otherwise). */
  localSeq: number;
  /**
   * The order of jobs due at one instant as one number: JOB_RANK, then the customer's creation
   * order, then `localSeq` (rank × 2^50 + customer seq × 2^20 + localSeq; exact below 2^30
   * customers and 2^20 subscriptions per customer), so the heap compares two numbers per job.
   */
  order: number;
}

/** What a subscription waits for, if anything (no allocation: the heap derives millions of these). */
function subscriptionJobKind(sub: SubscriptionState): JobKind | null {
  switch (sub.status) {
    case 'grace':
      return sub.grace_expires_at === null ? null : 'grace_expiry';
    case 'expired':
      return null;
    case 'paused':
      return sub.auto_resume_at === null ? null : 'resume';
    case 'temporary':
      return 'temporary_expiry';
    case 'trialing':
    case 'active':
      if (!sub.auto_renew) return 'expiration';
      if (sub.auto_resume_at !== null) return 'pause';
      if (sub.fail_next_renewal !== null) return 'billing_failure';
      return sub.period_type === 'TRIAL' ? 'trial_conversion' : 'renewal';
  }
}

/** When the subscription's job of that kind is due. */
const subscriptionJobAt = (sub: SubscriptionState, kind: JobKind): number =>
  kind === 'grace_expiry' ? (sub.grace_expires_at ?? sub.period_end) : kind === 'resume' ? (sub.auto_resume_at ?? sub.period_end) : sub.period_end;

/** When the customer's next expiring lot expires (core `nextCreditExpiry`). */
const creditExpiryOf = (customer: CustomerState): number | null => nextCreditExpiry(customer.ledger);

const ORDER_RANK = 2 ** 50;
const ORDER_CUSTOMER = 2 ** 20;

function liveJob(customer: CustomerState, localSeq: number, at: number, kind: JobKind, subscriptionId: string | null): LiveJob {
  // One literal with every field in one order: the heap compares these objects millions of times.
  return {
    at,
    kind,
    project_id: customer.project_id,
    customer_id: customer.id,
    subscription_id: subscriptionId,
    localSeq,
    order: JOB_RANK[kind] * ORDER_RANK + customer.seq * ORDER_CUSTOMER + localSeq,
  };
}

/**
 * One customer's jobs due at or before `limit`, derived from its state: its next credit expiry,
 * then one per live subscription.
 */
function customerJobs(customer: CustomerState, limit: number, out: { push(job: LiveJob): unknown }): void {
  const expiry = creditExpiryOf(customer);
  if (expiry !== null && expiry <= limit) out.push(liveJob(customer, 0, expiry, 'credit_expiry', null));
  const subs = customer.subscriptions;
  for (let index = 0; index < subs.length; index += 1) {
    const sub = subs[index]!;
    const kind = subscriptionJobKind(sub);
    if (kind === null) continue;
    const at = subscriptionJobAt(sub, kind);
    if (at <= limit) out.push(liveJob(customer, index + 1, at, kind, sub.id));
  }
}

const compareJobs = (a: LiveJob, b: LiveJob) => a.at - b.at || a.order - b.order;

function liveJobs(world: World, limit: number): LiveJob[] {
  const jobs: LiveJob[] = [];
  pmapForEach(world.projects, (project) => pmapForEach(project.customers, (customer) => customerJobs(customer, limit, jobs)));
  return jobs.sort(compareJobs);
}

/**
 * After a job ran, queues what it changed (due by `limit`): its subscription's next job, and the
 * customer's credit expiry when it moved. A job touches only its own subscription and the ledger, so
 * every other queued job of the customer is still right; queueing them again (as deriving all the
 * customer's jobs would) filled the heap with 100 k duplicates in a month of renewals due together.
 */
function requeueAfter(customer: CustomerState, job: LiveJob, expiryBefore: number | null, limit: number, out: { push(job: LiveJob): unknown }): void {
  const expiry = creditExpiryOf(customer);
  if (expiry !== null && expiry <= limit && (job.subscription_id === null || expiry !== expiryBefore)) {
    out.push(liveJob(customer, 0, expiry, 'credit_expiry', null));
  }
  if (job.subscription_id === null) return;
  const sub = customer.subscriptions[job.localSeq - 1];
  const kind = sub === undefined ? null : subscriptionJobKind(sub);
  if (sub === undefined || kind === null) return;
  const at = subscriptionJobAt(sub, kind);
  if (at <= limit) out.push(liveJob(customer, job.localSeq, at, kind, sub.id));
}

/** A queued job is still live when its customer's state still derives the same job. */
function isStillLive(job: LiveJob, customer: CustomerState): boolean {
  if (job.subscription_id === null) return creditExpiryOf(customer) === job.at;
  const sub = customer.subscriptions[job.localSeq - 1];
  if (sub === undefined || sub.id !== job.subscription_id) return false;
  const kind = subscriptionJobKind(sub);
  return kind === job.kind && subscriptionJobAt(sub, kind) === job.at;
}

/**
 * Given a world, returns the jobs waiting on its clock, soonest first.
 *
 * @example
 * pendingJobs(world)[0]?.kind; // 'credit_expiry'
 */
export function pendingJobs(world: World): Job[] {
  return liveJobs(world, Infinity).map(({ at, kind, project_id, customer_id, subscription_id }) => ({ at, kind, project_id, customer_id, subscription_id }));
}

function runJob(ctx: SimContext, job: LiveJob, customer: CustomerState): void {
  const sub = job.subscription_id === null ? null : (customer.subscriptions[job.localSeq - 1] ?? null);
  switch (job.kind) {
    case 'credit_expiry': {
      const { ledger, entries } = expireCredits(customer.ledger, ctx.now);
      customer.ledger = ledger;
      // Lots do not remember their purchase: the expiry reports the environment of the latest subscription.
      emitCurrencyEvent(ctx, customer, entries, null, null, customer.subscriptions.at(-1)?.environment);
      return;
    }
    case 'grace_expiry':
      if (sub !== null) expireNow(ctx, customer, sub, 'BILLING_ERROR');
      return;
    case 'expiration':
      if (sub !== null) expireNow(ctx, customer, sub, sub.cancel_reason ?? 'UNSUBSCRIBE');
      return;
    case 'temporary_expiry':
      // The purchase behind a temporary grant was never validated: EXPIRATION with the same transaction.
      if (sub !== null) expireNow(ctx, customer, sub, TEMPORARY_GRANT_EXPIRATION_REASON);
      return;
    case 'pause':
      if (sub !== null) pauseNow(ctx, customer, sub);
      return;
    case 'resume':
      if (sub !== null) resumeNow(ctx, customer, sub);
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
 * The jobs due by the target are derived from the state once and sorted; jobs derived later go into
 * a min-heap beside them (`createSortedRunQueue`). A job only touches its own subscription and its
 * customer's ledger, and running a job always moves that job on (the period ends later, the lot is
 * gone, the subscription expired), so after each job only what it changed is derived again and pushed;
 * a popped job that its customer's state no longer derives is stale and skipped. O(n log n) per
 * advance instead of a full re-derivation per job.
 */
export function advanceTo(ctx: SimContext, target: number): Result<{ now: number; jobs_run: Job[] }> {
  if (!Number.isSafeInteger(target) || target < ctx.now) {
    return fail('parameter_error', 'The clock can only move forward', 'to');
  }
  // Jobs are derived from the world the transition started from: a transition runs jobs before
  // anything else, so no customer has been changed yet.
  // Only jobs due by the target are queued: later ones would never run in this advance.
  const heap = createSortedRunQueue(compareJobs, liveJobs(ctx.base, target));
  const ran: Job[] = [];
  while (ran.length < MAX_JOBS_PER_ADVANCE) {
    const next = heap.pop();
    if (next === undefined || next.at > target) {
      ctx.now = target;
      return ok({ now: target, jobs_run: ran });
    }
    const customer = customerOf(ctx, next.project_id, next.customer_id, false);
    if (customer === undefined || !isStillLive(next, customer)) continue;
    ctx.now = Math.max(ctx.now, next.at);
    const expiryBefore = creditExpiryOf(customer);
    runJob(ctx, next, customer);
    ran.push({ at: next.at, kind: next.kind, project_id: next.project_id, customer_id: next.customer_id, subscription_id: next.subscription_id });
    requeueAfter(customer, next, expiryBefore, target, heap);
  }
  return fail('unprocessable_entity_error', `More than ${MAX_JOBS_PER_ADVANCE} jobs in one advance; advance in smaller steps`, 'to');
}
