/**
 * The jobs of one clock advance, column-wise: a job is a position in typed arrays (when, what kind,
 * which customer slot, which subscription), and a customer with jobs is a slot holding it as stored
 * in the world the advance started from and its writable copy once a job of it ran. A month advance
 * queues 200 k jobs for 100 k customers: as objects (a job and a slot each) they were ~20 MB that
 * the young generation copied until the advance ended.
 */
import type { CustomerState } from './world.js';

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

/** Job kinds by their code in a table (the `kind` column). */
export const JOB_KINDS = Object.keys(JOB_RANK) as JobKind[];
/** The code of each kind. */
export const JOB_CODE = Object.fromEntries(JOB_KINDS.map((kind, code) => [kind, code])) as Record<JobKind, number>;
/** The rank of each code. */
const RANK_OF_CODE = Uint8Array.from(JOB_KINDS, (kind) => JOB_RANK[kind]);
/** How many ranks there are (0 to 4). */
const RANKS = Math.max(...Object.values(JOB_RANK)) + 1;

/** The jobs of one advance and the customers they belong to. Columns grow by doubling. */
export interface JobTable {
  size: number;
  at: Float64Array;
  kind: Uint8Array;
  /** The subscription's place in its customer's list: 0 for a credit expiry, index + 1 otherwise. */
  local: Int32Array;
  slot: Int32Array;
  /** Customers by slot, as stored in the world the advance started from. */
  readonly stored: CustomerState[];
  /** The writable copy of each slot's customer, once a job of it ran. */
  readonly drafts: (CustomerState | null)[];
  /** Each slot's customer `seq` (read by every comparison without loading the customer). */
  seq: Float64Array;
}

/** Returns an empty table with room for `capacity` jobs. */
export function createJobTable(capacity: number): JobTable {
  const n = Math.max(16, capacity);
  return {
    size: 0,
    at: new Float64Array(n),
    kind: new Uint8Array(n),
    local: new Int32Array(n),
    slot: new Int32Array(n),
    stored: [],
    drafts: [],
    seq: new Float64Array(Math.max(16, capacity >> 1)),
  };
}

function grown<A extends Float64Array | Int32Array | Uint8Array>(column: A, make: (n: number) => A): A {
  const next = make(column.length * 2);
  next.set(column);
  return next;
}

/** Adds a customer with jobs; returns its slot. */
export function addSlot(table: JobTable, customer: CustomerState): number {
  const slot = table.stored.length;
  if (slot === table.seq.length) table.seq = grown(table.seq, (n) => new Float64Array(n));
  table.stored.push(customer);
  table.drafts.push(null);
  table.seq[slot] = customer.seq;
  return slot;
}

/** Adds a job; returns its index. */
export function addJob(table: JobTable, slot: number, local: number, at: number, kind: JobKind): number {
  const job = table.size;
  if (job === table.at.length) {
    table.at = grown(table.at, (n) => new Float64Array(n));
    table.kind = grown(table.kind, (n) => new Uint8Array(n));
    table.local = grown(table.local, (n) => new Int32Array(n));
    table.slot = grown(table.slot, (n) => new Int32Array(n));
  }
  table.at[job] = at;
  table.kind[job] = JOB_CODE[kind];
  table.local[job] = local;
  table.slot[job] = slot;
  table.size = job + 1;
  return job;
}

/**
 * The order of jobs: by time, then JOB_RANK, then their customers' creation order, then the
 * subscription's place. A total order (a subscription has one job at a time), so any sort gives
 * the same sequence.
 */
export function compareJobs(table: JobTable, a: number, b: number): number {
  return (
    table.at[a]! - table.at[b]! ||
    RANK_OF_CODE[table.kind[a]!]! - RANK_OF_CODE[table.kind[b]!]! ||
    table.seq[table.slot[a]!]! - table.seq[table.slot[b]!]! ||
    table.local[a]! - table.local[b]!
  );
}

/**
 * Every job of the table in `compareJobs` order, for jobs added customer by customer in creation
 * order, each customer's by place: a counting sort by rank gives (rank, customer, place), and when
 * the times are then in order (renewals due together) no comparison sort is needed at all.
 */
export function sortedJobs(table: JobTable): Int32Array {
  const n = table.size;
  const order = new Int32Array(n);
  const start = new Int32Array(RANKS + 1);
  for (let j = 0; j < n; j++) start[RANK_OF_CODE[table.kind[j]!]! + 1]! += 1;
  for (let r = 0; r < RANKS; r++) start[r + 1]! += start[r]!;
  for (let j = 0; j < n; j++) order[start[RANK_OF_CODE[table.kind[j]!]!]!++] = j;
  let sorted = true;
  for (let k = 1; k < n && sorted; k++) sorted = table.at[order[k - 1]!]! <= table.at[order[k]!]!;
  if (sorted) return order;
  // A plain array for the comparison sort (a typed array's sort with a comparator is slower).
  return Int32Array.from(Array.from(order).sort((a, b) => compareJobs(table, a, b)));
}
