/**
 * How a subscriber and its at-risk row are laid out in the `subscribers` table: columns to write
 * (as parallel arrays for `unnest`, so one statement writes many rows) and rows read back.
 */
import type { Action, AtRiskEntry, AtRiskRow, RiskBand, Subscriber, SubscriberState, Urgency } from '@tenure/core';

/** The at-risk columns, in the order of `ROW_COLUMNS`. */
export const ROW_COLUMNS = 'state, score, band, monthly_value_cents, top_action, top_urgency, top_reason, top_priority, assessed_at, rescore_at';

/** What `SELECT customer_id, record, ${ROW_COLUMNS}` returns. */
export interface SubscriberDbRow {
  customer_id: string;
  record: Subscriber;
  state: SubscriberState;
  score: number;
  band: RiskBand;
  /** bigint: node-postgres returns it as a string. */
  monthly_value_cents: string | number;
  top_action: Action | null;
  top_urgency: Urgency | null;
  top_reason: string | null;
  top_priority: number | null;
  assessed_at: number;
  rescore_at: number | null;
}

/** Given a row read back, returns the at-risk entry it holds. Pure. */
export function toAtRiskEntry(row: SubscriberDbRow): AtRiskEntry {
  return {
    customer_id: row.customer_id,
    state: row.state,
    score: row.score,
    band: row.band,
    monthly_value_usd: Number(row.monthly_value_cents) / 100,
    top:
      row.top_action === null || row.top_urgency === null || row.top_reason === null || row.top_priority === null
        ? null
        : { action: row.top_action, urgency: row.top_urgency, reason: row.top_reason, priority: row.top_priority },
    assessed_at: row.assessed_at,
    rescore_at: row.rescore_at,
    subscriber: row.record,
  };
}

/**
 * Rows to write, column by column: `unnest($1::text[], $2::json[], ...)` turns the arrays back into
 * rows, so a batch of any size is one statement with a fixed text (one plan) and 12 parameters.
 */
export class RowColumns {
  readonly customerIds: string[] = [];
  readonly records: string[] = [];
  readonly states: string[] = [];
  readonly scores: number[] = [];
  readonly bands: string[] = [];
  readonly topActions: (string | null)[] = [];
  readonly topUrgencies: (string | null)[] = [];
  readonly topReasons: (string | null)[] = [];
  readonly topPriorities: (number | null)[] = [];
  readonly assessedAts: number[] = [];
  readonly rescoreAts: (number | null)[] = [];
  readonly valueCents: number[] = [];

  get length(): number {
    return this.customerIds.length;
  }

  push(subscriber: Subscriber, row: AtRiskRow): void {
    this.customerIds.push(subscriber.customer_id);
    this.records.push(JSON.stringify(subscriber));
    this.states.push(row.state);
    this.scores.push(row.score);
    this.bands.push(row.band);
    this.topActions.push(row.top?.action ?? null);
    this.topUrgencies.push(row.top?.urgency ?? null);
    this.topReasons.push(row.top?.reason ?? null);
    this.topPriorities.push(row.top?.priority ?? null);
    this.assessedAts.push(row.assessed_at);
    this.rescoreAts.push(row.rescore_at);
    this.valueCents.push(Math.round(row.monthly_value_usd * 100));
  }

  /** The query parameters, in the order of `UNNEST_ROWS`. */
  params(): unknown[] {
    return [
      this.customerIds,
      this.records,
      this.states,
      this.scores,
      this.bands,
      this.topActions,
      this.topUrgencies,
      this.topReasons,
      this.topPriorities,
      this.assessedAts,
      this.rescoreAts,
      this.valueCents,
    ];
  }
}

/** The rows of `RowColumns.params()` as a table `u(customer_id, record, ...ROW_COLUMNS)`. */
export const UNNEST_ROWS = `unnest($1::text[], $2::json[], $3::text[], $4::smallint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::smallint[], $10::bigint[], $11::bigint[], $12::bigint[])
  AS u(customer_id, record, state, score, band, top_action, top_urgency, top_reason, top_priority, assessed_at, rescore_at, monthly_value_cents)`;

/** The number of parameters `UNNEST_ROWS` takes: a statement's own parameters start after it. */
export const UNNEST_PARAMS = 12;

/** `SET` list that copies every at-risk column from `u` (an update from `UNNEST_ROWS`). */
export const SET_ROW_FROM_U =
  'state = u.state, score = u.score, band = u.band, top_action = u.top_action, top_urgency = u.top_urgency, top_reason = u.top_reason, top_priority = u.top_priority, assessed_at = u.assessed_at, rescore_at = u.rescore_at, monthly_value_cents = u.monthly_value_cents';

/** Given the qualified subscribers table, returns the statement writing `RowColumns.params()` as new or replaced rows (reported activity untouched). Pure. */
export const upsertRowsSql = (subscribers: string): string => `
  INSERT INTO ${subscribers} AS s (customer_id, record, state, score, band, top_action, top_urgency, top_reason, top_priority, assessed_at, rescore_at, monthly_value_cents)
  SELECT * FROM ${UNNEST_ROWS}
  ON CONFLICT (customer_id) DO UPDATE SET
    record = excluded.record, state = excluded.state, score = excluded.score, band = excluded.band,
    top_action = excluded.top_action, top_urgency = excluded.top_urgency, top_reason = excluded.top_reason,
    top_priority = excluded.top_priority, assessed_at = excluded.assessed_at, rescore_at = excluded.rescore_at,
    monthly_value_cents = excluded.monthly_value_cents`;
