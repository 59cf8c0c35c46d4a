/**
 * Updating a stored subscriber while touching only the indexes whose columns changed. SQLite
 * rewrites the entry of every index that has a column in the SET list, even when the value is the
 * same; with indexes on state, score, rescore_at and monthly_value_cents, naming them all made a typical
 * event commit about 4 WAL pages instead of 1 (and would run the totals trigger). So each update
 * names the indexed columns that actually changed, from one of at most 64 statements, prepared on
 * first use.
 */
import type Database from 'better-sqlite3';
import type { AtRiskRow } from '@tenure/core';
import type { StoredSubscriber } from './statements.js';

/** What else an update writes besides the row: a new record, a new reported activity time. */
export interface SubscriberChanges {
  record?: string | undefined;
  reported_activity_at?: number | undefined;
}

/** Writes `row` (and `changes`) over the stored subscriber `before` read in the same transaction. */
export type UpdateSubscriber = (before: StoredSubscriber, row: AtRiskRow, changes: SubscriberChanges) => void;

const OPTIONAL = ['state', 'score', 'rescore_at', 'record', 'reported_activity_at', 'monthly_value_cents'] as const;

/** Given a connection, returns its subscriber updater. */
export function createSubscriberUpdater(db: Database.Database): UpdateSubscriber {
  const statements = new Map<number, Database.Statement<unknown[]>>();
  const statementFor = (mask: number) => {
    let stmt = statements.get(mask);
    if (stmt === undefined) {
      const set = ['band = ?', 'top_action = ?', 'top_urgency = ?', 'top_reason = ?', 'top_priority = ?', 'assessed_at = ?'];
      OPTIONAL.forEach((column, bit) => {
        if (mask & (1 << bit)) set.push(`${column} = ?`);
      });
      stmt = db.prepare<unknown[]>(`UPDATE subscribers SET ${set.join(', ')} WHERE customer_id = ?`);
      statements.set(mask, stmt);
    }
    return stmt;
  };

  return (before, row, changes) => {
    const top = row.top;
    const params: unknown[] = [row.band, top?.action ?? null, top?.urgency ?? null, top?.reason ?? null, top?.priority ?? null, row.assessed_at];
    // Bits in OPTIONAL's order; rescore_at may change to null, which is a value to write.
    let mask = 0;
    if (row.state !== before.state) (mask |= 1), params.push(row.state);
    if (row.score !== before.score) (mask |= 2), params.push(row.score);
    if (row.rescore_at !== before.rescore_at) (mask |= 4), params.push(row.rescore_at);
    if (changes.record !== undefined) (mask |= 8), params.push(changes.record);
    if (changes.reported_activity_at !== undefined) (mask |= 16), params.push(changes.reported_activity_at);
    const cents = Math.round(row.monthly_value_usd * 100);
    if (cents !== before.monthly_value_cents) (mask |= 32), params.push(cents);
    params.push(before.customer_id);
    statementFor(mask).run(...params);
  };
}
