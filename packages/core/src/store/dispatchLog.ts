/**
 * The dispatch log port: every delivery attempt, plus the cooldown marks that stop the same alert
 * from going out twice. Types only; every store implements it (memory, SQLite, PostgreSQL), so
 * cooldowns and history survive a restart and are shared by replicas.
 */
import type { DeliveryChannel } from '../dispatch/delivery.js';
import type { Action, Urgency } from '../recommend/recommendation.js';

/**
 * What happened to one attempt. `retrying` is a failed attempt that will be tried again.
 *
 * @example
 * DISPATCH_OUTCOMES.includes(record.outcome); // true
 */
export const DISPATCH_OUTCOMES = ['sent', 'retrying', 'failed', 'logged', 'skipped_cooldown', 'skipped_no_notifier'] as const;
export type DispatchOutcome = (typeof DISPATCH_OUTCOMES)[number];

/** Why a dispatch ran: a batch pass (`POST /api/dispatch`) or a webhook that raised an immediate alert. */
export type DispatchTrigger = 'batch' | 'webhook';

/** One line of the dispatch log. `at` is the service clock's time (epoch ms). */
export interface DispatchRecord {
  id: number;
  at: number;
  customer_id: string;
  action: Action;
  urgency: Urgency;
  risk_score: number;
  channel: DeliveryChannel;
  outcome: DispatchOutcome;
  /** 1 for the first attempt; 0 when nothing was attempted (logged, skipped). */
  attempt: number;
  error: string | null;
  trigger: DispatchTrigger;
}

/** A page of the log, newest first; pass `next_cursor` back as `before` for the next page. */
export interface DispatchPage {
  items: DispatchRecord[];
  next_cursor: number | null;
}

/** What `DispatchLog.list` reads: a page, optionally one customer's records and those since an instant. */
export interface DispatchQuery {
  limit: number;
  before?: number | undefined;
  customer_id?: string | undefined;
  /** Epoch ms: only records with `at >= since`. */
  since?: number | undefined;
}

/** One line of `DispatchLog.tally`: records of one channel and outcome. */
export interface DispatchTally {
  channel: DeliveryChannel;
  outcome: DispatchOutcome;
  count: number;
}

/**
 * Append-only attempt records (newest-first pages, ids increasing) and cooldown marks. Claiming a
 * cooldown must be atomic, also across processes sharing one database: batch and auto-dispatch,
 * or two replicas, can race for the same alert.
 */
export interface DispatchLog {
  append(entry: Omit<DispatchRecord, 'id'>): Promise<DispatchRecord>;
  /**
   * Newest first (by id), records with `id < before` when given; only those of `customer_id`, and
   * only those with `at >= since`, when given. Durable stores read a customer's records from an
   * index by (customer, id), so the cost is the page.
   */
  list(page: DispatchQuery): Promise<DispatchPage>;
  /**
   * How many records have `at >= since`, per channel and outcome (only pairs that occur), read from
   * an index by `at`: the dashboard's "alerts today" without reading the records.
   */
  tally(since: number): Promise<DispatchTally[]>;
  /** Marks `key` as alerted until `now + cooldownMs`; false (and no change) if it already is at `now`. */
  claimCooldown(key: string, now: number, cooldownMs: number): Promise<boolean>;
  /** Drops the mark of `key` (after a failed delivery, so the next pass may try again). */
  releaseCooldown(key: string): Promise<void>;
}
