/** Between the at-risk row as the core shapes it and as the `subscribers` table stores it (flat columns). */
import type { Action, AtRiskEntry, AtRiskRow, RiskBand, Subscriber, SubscriberState, Urgency } from '@tenure/core';

/** A `subscribers` row as the at-risk page statements select it. */
export interface StoredRow {
  customer_id: string;
  record: string;
  state: string;
  score: number;
  band: string;
  monthly_value_cents: number;
  top_action: string | null;
  top_urgency: string | null;
  top_reason: string | null;
  top_priority: number | null;
  assessed_at: number;
  rescore_at: number | null;
}

/** The values of `ROW_COLUMNS` for a row, in order. */
export function rowParams(row: AtRiskRow): unknown[] {
  const top = row.top;
  return [
    row.state,
    row.score,
    row.band,
    Math.round(row.monthly_value_usd * 100),
    top === null ? null : top.action,
    top === null ? null : top.urgency,
    top === null ? null : top.reason,
    top === null ? null : top.priority,
    row.assessed_at,
    row.rescore_at,
  ];
}

/** The entry a stored row answers with: the row's fields and the subscriber it was built from. */
export function entryFrom(stored: StoredRow): AtRiskEntry {
  // The columns hold what rowParams wrote, which came from the core's own types.
  return {
    customer_id: stored.customer_id,
    state: stored.state as SubscriberState,
    score: stored.score,
    band: stored.band as RiskBand,
    monthly_value_usd: stored.monthly_value_cents / 100,
    top:
      stored.top_action === null
        ? null
        : {
            action: stored.top_action as Action,
            urgency: stored.top_urgency as Urgency,
            reason: stored.top_reason ?? '',
            priority: stored.top_priority ?? 1,
          },
    assessed_at: stored.assessed_at,
    rescore_at: stored.rescore_at,
    subscriber: JSON.parse(stored.record) as Subscriber,
  };
}
