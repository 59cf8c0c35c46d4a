/**
 * Transferred subscriptions in the SQLite file (docs/rules.md §2, Transfers; schema version 7):
 * `moved_subscriptions` maps each subscription a TRANSFER moved (its events'
 * `original_transaction_id`) to the receiving id of the latest transfer that moved it. Every write
 * path routes an event through it before storing it (`routeMovedSubscription`), so an event of a
 * moved subscription delivered later is stored re-keyed to the receiver and lands on the receiver's
 * person. Runs inside the caller's transaction (one writer at a time: no race with a transfer).
 */
import type Database from 'better-sqlite3';
import { routeMovedSubscription, type HandledEvent, type MovedSubscription } from '@tenure/core';

/** The moved subscriptions of one connection. */
export interface SqliteMovedSubscriptions {
  /** The event as it is to be stored: re-keyed to its subscription's receiver (`receiverOf`, by default the table's) when it moved. */
  route(event: HandledEvent, receiverOf?: (subscription: string) => string | undefined): HandledEvent;
  /** The receiver the subscription moved to, or undefined. */
  receiverOf(subscription: string): string | undefined;
  /** Every subscription of the events stored under `key` now routes to `receiver` (before they move to it). */
  record(key: string, receiver: string): void;
  /** At most `limit` routes after the subscription `after` ('' for the first), in `original_transaction_id` order. */
  page(after: string, limit: number): MovedSubscription[];
  /** Restores routes in order, in one write transaction: each replaces the one held for its subscription. */
  restore(routes: readonly MovedSubscription[]): void;
}

/** Given a migrated database, returns its moved subscriptions. */
export function createSqliteMovedSubscriptions(db: Database.Database): SqliteMovedSubscriptions {
  const receiverOf = db.prepare<[string], string>('SELECT receiver FROM moved_subscriptions WHERE original_transaction_id = ?').pluck();
  // The same test as the core's `movedSubscriptionOf`: a non-empty string.
  const record = db.prepare<[string, string]>(
    `INSERT INTO moved_subscriptions (original_transaction_id, receiver)
       SELECT DISTINCT json_extract(body, '$.original_transaction_id'), ? FROM events
       WHERE customer_id = ? AND json_type(body, '$.original_transaction_id') = 'text' AND json_extract(body, '$.original_transaction_id') <> ''
     ON CONFLICT (original_transaction_id) DO UPDATE SET receiver = excluded.receiver`,
  );
  // Keyset pages in BINARY (code point) order, the primary key's, like the other reads of ids.
  const page = db.prepare<[string, number], MovedSubscription>(
    'SELECT original_transaction_id, receiver FROM moved_subscriptions WHERE original_transaction_id > ? ORDER BY original_transaction_id LIMIT ?',
  );
  // A route already held is not written again.
  const restore = db.prepare<[string, string]>(
    `INSERT INTO moved_subscriptions (original_transaction_id, receiver) VALUES (?, ?)
     ON CONFLICT (original_transaction_id) DO UPDATE SET receiver = excluded.receiver WHERE receiver <> excluded.receiver`,
  );
  const restoreAll = db.transaction((routes: readonly MovedSubscription[]) => {
    for (const route of routes) restore.run(route.original_transaction_id, route.receiver);
  });
  const lookup = (subscription: string) => receiverOf.get(subscription);
  return {
    route: (event, receiverOf = lookup) => routeMovedSubscription(event, receiverOf),
    receiverOf: lookup,
    record(key, receiver) {
      record.run(receiver, key);
    },
    page: (after, limit) => page.all(after, limit),
    restore: (routes) => restoreAll.immediate(routes),
  };
}
