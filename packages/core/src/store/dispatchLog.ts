/**
 * The dispatch log port: every delivery attempt, plus the cooldown marks that stop the same alert
 * from going out twice. Types only; every store implements it (memory, SQLite, PostgreSQL), so
 * cooldowns and history survive a restart and are shared by replicas. Since schema version 8 the
 * attempts of one delivery share a `delivery_id`, and a durable delivery (a webhook) is recorded
 * `pending` before its first attempt, so a restart finds what it must still send (`unfinished`).
 */
import type { DeliveryChannel } from '../dispatch/delivery.js';
import type { Action, Urgency } from '../recommend/recommendation.js';

/**
 * What happened to one attempt. `retrying` is a failed attempt that will be tried again; `pending`
 * is written before the first attempt of a durable delivery (a webhook), so a delivery cut short by
 * a crash is still found after the restart.
 *
 * @example
 * DISPATCH_OUTCOMES.includes(record.outcome); // true
 */
export const DISPATCH_OUTCOMES = ['sent', 'retrying', 'failed', 'logged', 'skipped_cooldown', 'skipped_no_notifier', 'pending'] as const;
export type DispatchOutcome = (typeof DISPATCH_OUTCOMES)[number];

/**
 * Why a dispatch ran: a batch pass (`POST /api/dispatch`), a webhook that raised an immediate alert,
 * a person's click or API call (`manual`: a resend, an offer), or an automatic offer (`auto`).
 */
export type DispatchTrigger = 'batch' | 'webhook' | 'manual' | 'auto';

/**
 * A channel of the dispatch log: every delivery channel, plus `offer` (a one-click offer granted
 * through RevenueCat) and `offer_revoke` (such a grant revoked, a record of the grant's delivery),
 * which are recorded in the log but never planned by `planDispatch`.
 */
export type DispatchChannel = DeliveryChannel | 'offer' | 'offer_revoke';

/** One line of the dispatch log. `at` is the service clock's time (epoch ms). */
export interface DispatchRecord {
  id: number;
  at: number;
  customer_id: string;
  action: Action;
  urgency: Urgency;
  risk_score: number;
  channel: DispatchChannel;
  outcome: DispatchOutcome;
  /** 1 for the first attempt; 0 when nothing was attempted (logged, skipped, pending). */
  attempt: number;
  error: string | null;
  trigger: DispatchTrigger;
  /**
   * The id of the delivery's first record, shared by all its attempts (a record that starts a
   * delivery has `delivery_id === id`); null for records written before schema version 8.
   */
  delivery_id: number | null;
  /** What the delivery went to: a webhook endpoint's name, an offer's entitlement id; else null. */
  target: string | null;
  /**
   * JSON text. A webhook: the exact body sent (a retry or a restart resends these bytes), and on a
   * final refusal the receiver's answer `{"status":..,"body":..}`. An offer: what its writer records.
   */
  detail: string | null;
  /** Who acted, for manual actions (a resend, an offer); null otherwise. */
  actor: string | null;
}

/**
 * What `DispatchLog.append` takes: a record without its id; the version 8 fields are optional
 * (`target`, `detail`, `actor` default to null). An omitted `delivery_id` starts a delivery (the
 * store sets it to the new record's id); pass the first record's id for a later attempt, or null.
 */
export type DispatchEntry = Omit<DispatchRecord, 'id' | 'delivery_id' | 'target' | 'detail' | 'actor'> &
  Partial<Pick<DispatchRecord, 'delivery_id' | 'target' | 'detail' | 'actor'>>;

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
  channel: DispatchChannel;
  outcome: DispatchOutcome;
  count: number;
}

/**
 * Append-only attempt records (newest-first pages, ids increasing) and cooldown marks. Claiming a
 * cooldown must be atomic, also across processes sharing one database: batch and auto-dispatch,
 * or two replicas, can race for the same alert.
 */
export interface DispatchLog {
  /** Stores `entry` with the next id (see `DispatchEntry` for the defaults) and returns the stored record. */
  append(entry: DispatchEntry): Promise<DispatchRecord>;
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
  /**
   * What a restart must still send: the newest record of each delivery whose newest record is
   * `pending` or `retrying`, oldest delivery first, at most `limit`. Records without a
   * `delivery_id` (before version 8) are never unfinished.
   */
  unfinished(limit: number): Promise<DispatchRecord[]>;
  /** Every record of delivery `deliveryId` (the id of its first record), oldest first; [] when unknown. */
  delivery(deliveryId: number): Promise<DispatchRecord[]>;
  /** Marks `key` as alerted until `now + cooldownMs`; false (and no change) if it already is at `now`. */
  claimCooldown(key: string, now: number, cooldownMs: number): Promise<boolean>;
  /** Drops the mark of `key` (after a failed delivery, so the next pass may try again). */
  releaseCooldown(key: string): Promise<void>;
}
