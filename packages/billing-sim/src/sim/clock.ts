/**
 * The virtual clock and its job queue. The queue is derived from the state (each subscription's next
 * cycle end or grace end, each ledger's next lot expiry), so it can never hold a stale job. Advancing
 * runs every job due in the span in time order, each at its own virtual instant.
 */
import { expireCredits, nextCreditExpiry } from '@tenure/core';
import { fail, ok, type Result } from './apiError.js';
import { adoptCustomer, emitCurrencyEvent, type SimContext } from './context.js';
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

/**
 * A customer with jobs in one advance: as stored in the world the advance started from, and its
 * writable copy once a job ran. Every job of the customer shares one slot, so a popped job finds the
 * copy without looking the customer up again.
 */
interface CustomerSlot {
  readonly stored: CustomerState;
  draft: CustomerState | null;
}

/**
 * A queued job: small (its customer and subscription are read through the slot when it runs), as
 * a month advance queues 200 k of them and reads each once, out of cache.
 */
interface LiveJob {
  at: number;
  kind: JobKind;
  slot: CustomerSlot;
  /** The subscription's place in its customer's list (0 for a credit expiry, index + 1 otherwise). */
  localSeq: number;
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


function liveJob(slot: CustomerSlot, localSeq: number, at: number, kind: JobKind): LiveJob {
  // One literal with every field in one order: the heap compares these objects millions of times.
  return { at, kind, slot, localSeq };
}

/** The public view of a job (its customer's ids; a subscription keeps its place in its customer's list). */
function toJob(job: LiveJob): Job {
  const customer = job.slot.stored;
  const subscriptionId = job.localSeq === 0 ? null : (customer.subscriptions[job.localSeq - 1]?.id ?? null);
  return { at: job.at, kind: job.kind, project_id: customer.project_id, customer_id: customer.id, subscription_id: subscriptionId };
}

/**
 * One customer's jobs due at or before `limit`, derived from its state: its next credit expiry,
 * then one per live subscription.
 */
function customerJobs(customer: CustomerState, limit: number, out: { push(job: LiveJob): unknown }): void {
  let slot: CustomerSlot | null = null;
  const expiry = creditExpiryOf(customer);
  if (expiry !== null && expiry <= limit) out.push(liveJob((slot = { stored: customer, draft: null }), 0, expiry, 'credit_expiry'));
  const subs = customer.subscriptions;
  for (let index = 0; index < subs.length; index += 1) {
    const sub = subs[index]!;
    const kind = subscriptionJobKind(sub);
    if (kind === null) continue;
    const at = subscriptionJobAt(sub, kind);
    if (at <= limit) out.push(liveJob((slot ??= { stored: customer, draft: null }), index + 1, at, kind));
  }
}

/**
 * Jobs due at one instant run by JOB_RANK, then in their customers' creation order, then by the
 * subscription's place. (Only the jobs queued after the first ones are compared: see `liveJobs`.)
 */
const compareJobs = (a: LiveJob, b: LiveJob) =>
  a.at - b.at || JOB_RANK[a.kind] - JOB_RANK[b.kind] || a.slot.stored.seq - b.slot.stored.seq || a.localSeq - b.localSeq;

/**
 * Every job due by `limit`, sorted by `compareJobs`. Customers are taken in creation order (their
 * `seq` is dense) and their jobs bucketed by rank, so the list comes out ordered by (rank, customer,
 * place), as `compareJobs` orders them; a stable sort by time alone finishes it. A month of renewals due at one
 * instant is then one sorted run for the sort, not 200 k jobs compared in hash order.
 */
function liveJobs(world: World, limit: number): LiveJob[] {
  const bySeq: (CustomerState | undefined)[] = new Array<CustomerState | undefined>(world.customer_seq + 1);
  let dense = true;
  pmapForEach(world.projects, (project) =>
    pmapForEach(project.customers, (customer) => {
      if (customer.seq < bySeq.length && bySeq[customer.seq] === undefined) bySeq[customer.seq] = customer;
      else dense = false;
    }),
  );
  if (!dense) {
    // Not expected (every customer takes the next seq); the plain sort stays right whatever the seqs.
    const jobs: LiveJob[] = [];
    pmapForEach(world.projects, (project) => pmapForEach(project.customers, (customer) => customerJobs(customer, limit, jobs)));
    return jobs.sort(compareJobs);
  }
  const byRank: LiveJob[][] = [[], [], [], [], []];
  const out = { push: (job: LiveJob) => byRank[JOB_RANK[job.kind]]!.push(job) };
  for (let seq = 0; seq < bySeq.length; seq += 1) {
    const customer = bySeq[seq];
    if (customer !== undefined) customerJobs(customer, limit, out);
  }
  return byRank.flat().sort(byTime);
}

const byTime = (a: LiveJob, b: LiveJob) => a.at - b.at;

/**
 * After a job ran, queues what it changed (due by `limit`): its subscription's next job, and the
 * customer's credit expiry when it moved. A job touches only its own subscription and the ledger, so
 * every other queued job of the customer is still right; queueing them again (as deriving all the
 * customer's jobs would) filled the heap with 100 k duplicates in a month of renewals due together.
 */
function requeueAfter(customer: CustomerState, job: LiveJob, expiryBefore: number | null, limit: number, out: { push(job: LiveJob): unknown }): void {
  const expiry = creditExpiryOf(customer);
  if (expiry !== null && expiry <= limit && (job.localSeq === 0 || expiry !== expiryBefore)) {
    out.push(liveJob(job.slot, 0, expiry, 'credit_expiry'));
  }
  if (job.localSeq === 0) return;
  const sub = customer.subscriptions[job.localSeq - 1];
  const kind = sub === undefined ? null : subscriptionJobKind(sub);
  if (sub === undefined || kind === null) return;
  const at = subscriptionJobAt(sub, kind);
  if (at <= limit) out.push(liveJob(job.slot, job.localSeq, at, kind));
}

/**
 * A queued subscription job is still live when its subscription still derives the same job (a
 * subscription keeps its place in its customer's list: jobs never remove one).
 */
function isStillLive(job: LiveJob, customer: CustomerState): boolean {
  const sub = customer.subscriptions[job.localSeq - 1];
  if (sub === undefined) return false;
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
  return liveJobs(world, Infinity).map(toJob);
}

function runJob(ctx: SimContext, job: LiveJob, customer: CustomerState): void {
  const sub = job.localSeq === 0 ? null : (customer.subscriptions[job.localSeq - 1] ?? null);
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
    // The stored customer tells whether the job is still live as well as its copy does (nothing
    // changed it yet), and a stale job should not copy it.
    const seen = next.slot.draft ?? next.slot.stored;
    const expiryBefore = creditExpiryOf(seen);
    if (next.localSeq === 0 ? expiryBefore !== next.at : !isStillLive(next, seen)) continue;
    const customer = (next.slot.draft ??= adoptCustomer(ctx, next.slot.stored));
    ctx.now = Math.max(ctx.now, next.at);
    runJob(ctx, next, customer);
    ran.push(toJob(next));
    requeueAfter(customer, next, expiryBefore, target, heap);
  }
  return fail('unprocessable_entity_error', `More than ${MAX_JOBS_PER_ADVANCE} jobs in one advance; advance in smaller steps`, 'to');
}
