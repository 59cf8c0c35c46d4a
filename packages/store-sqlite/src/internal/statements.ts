/**
 * Every fixed SQL statement of the store, prepared once per connection (preparing costs more than
 * running a small statement). The at-risk page statements depend on the filters and are prepared
 * on first use in `atRiskPage.ts`.
 */
import type Database from 'better-sqlite3';

/** Columns of the materialized at-risk row, in the order `rowParams` binds them. */
export const ROW_COLUMNS = 'state, score, band, monthly_value_cents, top_action, top_urgency, top_reason, top_priority, assessed_at, rescore_at';

/** What a write reads of a stored subscriber first: the record, and the indexed columns it may leave alone. */
export interface StoredSubscriber {
  customer_id: string;
  record: string;
  reported_activity_at: number | null;
  state: string;
  score: number;
  monthly_value_cents: number;
  rescore_at: number | null;
}
const STORED_COLUMNS = 'customer_id, record, reported_activity_at, state, score, monthly_value_cents, rescore_at';

/** One cell of `at_risk_totals`. */
export interface TotalsCell {
  state: string;
  score: number;
  count: number;
  cents: number;
}

/** The stored events of a range of customers, customer by customer (a replay's batch): read through the timeline's index. */
export const EVENTS_OF_RANGE_SQL = 'SELECT customer_id, body FROM events WHERE customer_id >= ? AND customer_id <= ? ORDER BY customer_id, seq';

/** Due rows, most overdue first: a range of the partial index on rescore_at. */
export const DUE_SQL = `SELECT ${STORED_COLUMNS} FROM subscribers WHERE rescore_at <= ? ORDER BY rescore_at LIMIT ?`;

type Stmt<P extends unknown[], R = unknown> = Database.Statement<P, R>;

/** The statements of one connection. */
export interface Statements {
  /** id, occurrence (`transactionOccurrenceOf`, or null), customer, type, time, body; no change on a duplicate id or occurrence. */
  insertEvent: Stmt<[string, string | null, string, string, number, string]>;
  /** The person's key of the stored event holding an occurrence key, unless an event with the given id is stored (a redelivery). */
  heldOccurrence: Stmt<[string, string], { customer_id: string }>;
  getStored: Stmt<[string], StoredSubscriber>;
  insertSubscriber: Stmt<unknown[]>;
  due: Stmt<[number, number], StoredSubscriber>;
  countDue: Stmt<[number, number], { n: number }>;
  subscribersFirst: Stmt<[number], StoredSubscriber>;
  subscribersAfter: Stmt<[string, number], StoredSubscriber>;
  activityAfter: Stmt<[string, number], { customer_id: string; reported_activity_at: number }>;
  eventsOfRange: Stmt<[string, string], { customer_id: string; body: string }>;
  eventsAfter: Stmt<[number, number], { seq: number; body: string }>;
  countSubscribers: Stmt<[], { n: number }>;
  countEvents: Stmt<[], { n: number }>;
  totals: Stmt<[], TotalsCell>;
  getMeta: Stmt<[string], { value: string }>;
  setMeta: Stmt<[string, string]>;
  deleteMeta: Stmt<[string]>;
}

/** Given an open, migrated database, returns its prepared statements. */
export function prepareStatements(db: Database.Database): Statements {
  return {
    insertEvent: db.prepare<[string, string | null, string, string, number, string]>(
      'INSERT INTO events (id, occurrence, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    heldOccurrence: db.prepare<[string, string], { customer_id: string }>(
      'SELECT customer_id FROM events WHERE occurrence = ? AND NOT EXISTS (SELECT 1 FROM events WHERE id = ?)',
    ),
    getStored: db.prepare<[string], StoredSubscriber>(`SELECT ${STORED_COLUMNS} FROM subscribers WHERE customer_id = ?`),
    // The caller has just read the subscriber, so it knows whether to insert or update (an upsert
    // would probe the primary key index once more); updates are built in subscriberUpdater.ts.
    insertSubscriber: db.prepare(`INSERT INTO subscribers (${ROW_COLUMNS}, record, customer_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    due: db.prepare<[number, number], StoredSubscriber>(DUE_SQL),
    /** How many rows are due, counting no further than the limit. */
    countDue: db.prepare<[number, number], { n: number }>(
      'SELECT count(*) AS n FROM (SELECT 1 FROM subscribers WHERE rescore_at <= ? LIMIT ?)',
    ),
    subscribersFirst: db.prepare<[number], StoredSubscriber>(`SELECT ${STORED_COLUMNS} FROM subscribers ORDER BY customer_id LIMIT ?`),
    subscribersAfter: db.prepare<[string, number], StoredSubscriber>(
      `SELECT ${STORED_COLUMNS} FROM subscribers WHERE customer_id > ? ORDER BY customer_id LIMIT ?`,
    ),
    activityAfter: db.prepare<[string, number], { customer_id: string; reported_activity_at: number }>(
      `SELECT customer_id, reported_activity_at FROM subscribers
       WHERE customer_id > ? AND reported_activity_at IS NOT NULL ORDER BY customer_id LIMIT ?`,
    ),
    /** The events of the customers in [first, last], customer by customer, each in storage order. */
    eventsOfRange: db.prepare<[string, string], { customer_id: string; body: string }>(
      EVENTS_OF_RANGE_SQL,
    ),
    eventsAfter: db.prepare<[number, number], { seq: number; body: string }>('SELECT seq, body FROM events WHERE seq > ? ORDER BY seq LIMIT ?'),
    countSubscribers: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM subscribers'),
    countEvents: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM events'),
    /** Every non-empty (state, score) cell: at most 101 per state. */
    totals: db.prepare<[], TotalsCell>('SELECT state, score, count, cents FROM at_risk_totals WHERE count > 0'),
    getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    deleteMeta: db.prepare<[string]>('DELETE FROM meta WHERE key = ?'),
  };
}
