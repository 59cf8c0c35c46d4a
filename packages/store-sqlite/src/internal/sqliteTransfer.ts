/**
 * TRANSFER in the SQLite file (docs/rules.md §2): in one `BEGIN IMMEDIATE` transaction, the
 * transfer id is kept (`transfers`, schema version 3: a repeat is a duplicate), every event of each
 * sender's person is re-keyed to the receiver (its `customer_id`, the body's `app_user_id`, and
 * without the sender's `original_app_user_id` and `aliases`: a transfer moves transactions, not
 * identities; `reKeyToReceiver`), so replay and export reproduce the move, the senders'
 * subscribers and ids are deleted (the totals' triggers follow) and the receiver's person is folded
 * again from its events with the latest reported activity of all; every moved event's subscription
 * now routes to the receiver (`moved_subscriptions`, schema version 7), so its later events follow.
 * A sender that is the receiver's own person under another id moves nothing.
 */
import type Database from 'better-sqlite3';
import { transferOf, type StoreContext, type Subscriber, type TransferEvent, type TransferOutcome } from '@tenure/core';
import type { SqliteMovedSubscriptions } from './sqliteMovedSubscriptions.js';
import type { SqlitePeople } from './sqlitePeople.js';
import type { Statements, StoredSubscriber } from './statements.js';

/** Given the database, its statements, identity index and moved subscriptions, returns the transfer as one immediate transaction. */
export function createSqliteTransfer(
  db: Database.Database,
  s: Statements,
  people: SqlitePeople,
  movedSubscriptions: SqliteMovedSubscriptions,
): (event: TransferEvent, ctx: StoreContext) => TransferOutcome {
  const insertTransfer = db.prepare<[string, number, string]>('INSERT INTO transfers (id, event_timestamp_ms, body) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING');
  const moveEvents = db.prepare<[string, string, string]>(
    "UPDATE events SET customer_id = ?, body = json_remove(json_set(body, '$.app_user_id', ?), '$.original_app_user_id', '$.aliases') WHERE customer_id = ?",
  );
  const deleteSubscriber = db.prepare<[string]>('DELETE FROM subscribers WHERE customer_id = ?');
  const parse = (stored: StoredSubscriber | undefined) => (stored === undefined ? undefined : (JSON.parse(stored.record) as Subscriber));

  const transfer = db.transaction((event: TransferEvent, ctx: StoreContext): TransferOutcome => {
    if (insertTransfer.run(event.id, event.event_timestamp_ms, JSON.stringify(event)).changes === 0) return { status: 'duplicate' };
    const { from, to } = transferOf(event);
    const receiver = to[0];
    if (receiver === undefined) return { status: 'applied', receiver, moved: 0, subscriber: undefined };
    const target = people.keyOf(receiver);
    const senders = [...new Set(from.flatMap((id) => people.keyOf(id) ?? []))].filter((key) => key !== target);
    if (senders.length === 0) return { status: 'applied', receiver, moved: 0, subscriber: target === undefined ? undefined : parse(s.getStored.get(target)) };
    const reported = people.reportedOf(target === undefined ? senders : [target, ...senders]);
    const destination = target ?? receiver;
    let moved = 0;
    for (const sender of senders) {
      movedSubscriptions.record(sender, receiver);
      moved += moveEvents.run(destination, receiver, sender).changes;
      deleteSubscriber.run(sender);
      people.release(sender);
    }
    if (target === undefined) people.add(receiver, [receiver]);
    const subscriber = people.regroup([destination], reported, ctx);
    return { status: 'applied', receiver, moved, subscriber };
  });
  return (event, ctx) => transfer.immediate(event, ctx);
}
