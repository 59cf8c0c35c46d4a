/**
 * TRANSFER in the SQLite file (docs/rules.md §2): in one `BEGIN IMMEDIATE` transaction, the
 * transfer id is kept (`transfers`, schema version 3: a repeat is a duplicate), every event of each
 * sender is re-keyed to the receiver (its `customer_id` and the body's `app_user_id`, so replay and
 * export reproduce the move), the senders' subscribers are deleted (the totals' triggers follow)
 * and the receiver is folded again from its events with the latest reported activity of all.
 */
import type Database from 'better-sqlite3';
import { foldEvents, recordActivity, transferOf, type HandledEvent, type StoreContext, type Subscriber, type TransferEvent, type TransferOutcome } from '@tenure/core';
import type { Statements, StoredSubscriber } from './statements.js';

/** Writes a subscriber and its row over what was stored (undefined: a new one). */
export type SaveSubscriber = (subscriber: Subscriber, before: StoredSubscriber | undefined, ctx: StoreContext) => void;

/** Given the database, its statements and the store's save, returns the transfer as one immediate transaction. */
export function createSqliteTransfer(db: Database.Database, s: Statements, save: SaveSubscriber): (event: TransferEvent, ctx: StoreContext) => TransferOutcome {
  const insertTransfer = db.prepare<[string, number, string]>('INSERT INTO transfers (id, event_timestamp_ms, body) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING');
  const moveEvents = db.prepare<[string, string, string]>("UPDATE events SET customer_id = ?, body = json_set(body, '$.app_user_id', ?) WHERE customer_id = ?");
  const deleteSubscriber = db.prepare<[string]>('DELETE FROM subscribers WHERE customer_id = ?');
  const setReported = db.prepare<[number, string]>('UPDATE subscribers SET reported_activity_at = ? WHERE customer_id = ?');
  const parse = (stored: StoredSubscriber | undefined) => (stored === undefined ? undefined : (JSON.parse(stored.record) as Subscriber));

  const transfer = db.transaction((event: TransferEvent, ctx: StoreContext): TransferOutcome => {
    if (insertTransfer.run(event.id, event.event_timestamp_ms, JSON.stringify(event)).changes === 0) return { status: 'duplicate' };
    const { from, to } = transferOf(event);
    const receiver = to[0];
    if (receiver === undefined) return { status: 'applied', receiver, moved: 0, subscriber: undefined };
    const target = s.getStored.get(receiver);
    const senders = from.flatMap((id) => s.getStored.get(id) ?? []);
    if (senders.length === 0) return { status: 'applied', receiver, moved: 0, subscriber: parse(target) };
    let moved = 0;
    let reported = target?.reported_activity_at ?? null;
    for (const sender of senders) {
      moved += moveEvents.run(receiver, receiver, sender.customer_id).changes;
      deleteSubscriber.run(sender.customer_id);
      if (sender.reported_activity_at !== null) reported = Math.max(reported ?? sender.reported_activity_at, sender.reported_activity_at);
    }
    const events = s.eventsOfRange.all(receiver, receiver).map((row) => JSON.parse(row.body) as HandledEvent);
    const folded = foldEvents(events)!; // at least one event moved
    const subscriber = reported === null ? folded : recordActivity(folded, reported);
    save(subscriber, target, ctx);
    if (reported !== null && reported !== target?.reported_activity_at) setReported.run(reported, receiver);
    return { status: 'applied', receiver, moved, subscriber };
  });
  return (event, ctx) => transfer.immediate(event, ctx);
}
