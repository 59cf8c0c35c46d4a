/**
 * The virtual clock and its job queue. The queue is derived from the state (each subscription's next
 * cycle end or grace end, each ledger's next lot expiry), so it can never hold a stale job. Advancing
 * runs every job due in the span in time order, each at its own virtual instant.
 */
import { expireCredits, nextCreditExpiry } from '@tenure/core';
import { fail, ok, type Result } from './apiError.js';
import { adoptCustomer, emitCurrencyEvent, type SimContext } from './context.js';
import { pvecForEach } from './persistentVector.js';
import { expireNow, failChargeNow, pauseNow, renewNow, resumeNow, TEMPORARY_GRANT_EXPIRATION_REASON } from './cycles.js';
import { createSortedRunQueue, type MinHeap } from '../internal/minHeap.js';
import { addJob, addSlot, compareJobs, createJobTable, JOB_KINDS, sortedJobs, type JobKind, type JobTable } from './jobTable.js';
import type { CustomerState, SubscriptionState, World } from './world.js';

export type { JobKind } from './jobTable.js';
export { JOB_RANK } from './jobTable.js';

export interface Job {
  at: number;
  kind: JobKind;
  project_id: string;
  customer_id: string;
  subscription_id: string | null;
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

/** The public view of a job (its customer's ids; a subscription keeps its place in its customer's list). */
function toJob(table: JobTable, job: number): Job {
  const customer = table.stored[table.slot[job]!]!;
  const local = table.local[job]!;
  const subscriptionId = local === 0 ? null : (customer.subscriptions[local - 1]?.id ?? null);
  return { at: table.at[job]!, kind: JOB_KINDS[table.kind[job]!]!, project_id: customer.project_id, customer_id: customer.id, subscription_id: subscriptionId };
}

/**
 * One customer's jobs due at or before `limit`, derived from its state: its next credit expiry,
 * then one per live subscription. The customer takes a slot only if it has a job.
 */
function customerJobs(table: JobTable, customer: CustomerState, limit: number): void {
  let slot = -1;
  const expiry = creditExpiryOf(customer);
  if (expiry !== null && expiry <= limit) addJob(table, (slot = addSlot(table, customer)), 0, expiry, 'credit_expiry');
  const subs = customer.subscriptions;
  for (let index = 0; index < subs.length; index += 1) {
    const sub = subs[index]!;
    const kind = subscriptionJobKind(sub);
    if (kind === null) continue;
    const at = subscriptionJobAt(sub, kind);
    if (at > limit) continue;
    if (slot < 0) slot = addSlot(table, customer);
    addJob(table, slot, index + 1, at, kind);
  }
}

/**
 * Every job due by `limit` in a table, and their order (`compareJobs`). The world holds its
 * customers by creation order, so `sortedJobs` needs no comparison sort when the jobs' times are in
 * order already (a month of renewals due at one instant).
 */
function deriveJobs(world: World, limit: number): { table: JobTable; order: Int32Array } {
  const table = createJobTable(2 * world.customer_seq);
  pvecForEach(world.customers, (customer) => customerJobs(table, customer, limit));
  return { table, order: sortedJobs(table) };
}

/**
 * After a job ran, queues what it changed (due by `limit`): its subscription's next job, and the
 * customer's credit expiry when it moved. A job touches only its own subscription and the ledger, so
 * every other queued job of the customer is still right; queueing them again (as deriving all the
 * customer's jobs would) filled the heap with 100 k duplicates in a month of renewals due together.
 */
function requeueAfter(table: JobTable, queue: MinHeap<number>, customer: CustomerState, slot: number, local: number, expiryBefore: number | null, limit: number): void {
  const expiry = creditExpiryOf(customer);
  if (expiry !== null && expiry <= limit && (local === 0 || expiry !== expiryBefore)) {
    queue.push(addJob(table, slot, 0, expiry, 'credit_expiry'));
  }
  if (local === 0) return;
  const sub = customer.subscriptions[local - 1];
  const kind = sub === undefined ? null : subscriptionJobKind(sub);
  if (sub === undefined || kind === null) return;
  const at = subscriptionJobAt(sub, kind);
  if (at <= limit) queue.push(addJob(table, slot, local, at, kind));
}

/**
 * A queued subscription job is still live when its subscription still derives the same job (a
 * subscription keeps its place in its customer's list: jobs never remove one).
 */
function isStillLive(customer: CustomerState, local: number, kind: JobKind, at: number): boolean {
  const sub = customer.subscriptions[local - 1];
  if (sub === undefined) return false;
  const derived = subscriptionJobKind(sub);
  return derived === kind && subscriptionJobAt(sub, derived) === at;
}

/**
 * Given a world, returns the jobs waiting on its clock, soonest first.
 *
 * @example
 * pendingJobs(world)[0]?.kind; // 'credit_expiry'
 */
export function pendingJobs(world: World): Job[] {
  const { table, order } = deriveJobs(world, Infinity);
  return Array.from(order, (job) => toJob(table, job));
}

function runJob(ctx: SimContext, kind: JobKind, local: number, customer: CustomerState): void {
  const sub = local === 0 ? null : (customer.subscriptions[local - 1] ?? null);
  switch (kind) {
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
 * What an advance answers: the new time and the jobs it ran. The jobs are kept as positions in the
 * advance's table and made into `Job` objects when `jobs_run` is first read (a month advance runs
 * 200 k, and most callers never read them).
 */
function advanced(now: number, table: JobTable, ran: number[]): { now: number; jobs_run: Job[] } {
  let jobs: Job[] | null = null;
  return {
    now,
    get jobs_run() {
      return (jobs ??= ran.map((job) => toJob(table, job)));
    },
  };
}

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
  const { table, order } = deriveJobs(ctx.base, target);
  const queue = createSortedRunQueue((a: number, b: number) => compareJobs(table, a, b), order);
  const ran: number[] = [];
  while (ran.length < MAX_JOBS_PER_ADVANCE) {
    const job = queue.pop();
    if (job === undefined || table.at[job]! > target) {
      ctx.now = target;
      return ok(advanced(target, table, ran));
    }
    const slot = table.slot[job]!;
    const local = table.local[job]!;
    const at = table.at[job]!;
    const kind = JOB_KINDS[table.kind[job]!]!;
    // The stored customer tells whether the job is still live as well as its copy does (nothing
    // changed it yet), and a stale job should not copy it.
    const seen = table.drafts[slot] ?? table.stored[slot]!;
    const expiryBefore = creditExpiryOf(seen);
    if (local === 0 ? expiryBefore !== at : !isStillLive(seen, local, kind, at)) continue;
    let customer = table.drafts[slot] ?? null;
    if (customer === null) table.drafts[slot] = customer = adoptCustomer(ctx, table.stored[slot]!);
    ctx.now = Math.max(ctx.now, at);
    runJob(ctx, kind, local, customer);
    ran.push(job);
    requeueAfter(table, queue, customer, slot, local, expiryBefore, target);
  }
  return fail('unprocessable_entity_error', `More than ${MAX_JOBS_PER_ADVANCE} jobs in one advance; advance in smaller steps`, 'to');
}
