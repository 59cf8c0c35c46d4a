/**
 * TRANSFER on PostgreSQL (docs/rules.md §2), in one transaction: the transfer id is kept
 * (`transfers`, schema version 3: a repeat, also from another replica at the same moment, is a
 * duplicate), the locks of the receiver's and senders' ids and persons are taken (`lockPeople`),
 * every event of each sender's person is re-keyed to the receiver (`customer_id`, the body's
 * `app_user_id`, and without the sender's `original_app_user_id` and `aliases`: a transfer moves
 * transactions, not identities; `reKeyToReceiver`), so replay and export reproduce the move, the
 * senders' subscribers and ids are deleted (the totals' triggers follow) and the receiver's person
 * is folded again from its events with the latest reported activity of all; every moved event's
 * subscription now routes to the receiver (`moved_subscriptions`, schema version 7), so its later
 * events follow. A sender that is the receiver's own person under another id moves nothing.
 */
import { transferOf, type StoreContext, type Subscriber, type TransferEvent, type TransferOutcome } from '@tenure/core';
import type pg from 'pg';
import { recordMoved } from './pgMovedSubscriptions.js';
import { addIdentities, lockPeople, regroupPeople } from './pgPeople.js';
import type { Tables } from './tables.js';

/** Inside an open transaction on `client`: applies the transfer and resolves with what it did. */
export async function transferCustomers(client: pg.ClientBase, t: Tables, event: TransferEvent, { now, config }: StoreContext): Promise<TransferOutcome> {
  const kept = await client.query(`INSERT INTO ${t.transfers} (id, event_timestamp_ms, body) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [
    event.id,
    event.event_timestamp_ms,
    JSON.stringify(event),
  ]);
  if (kept.rowCount === 0) return { status: 'duplicate' };
  const { from, to } = transferOf(event);
  const receiver = to[0];
  if (receiver === undefined) return { status: 'applied', receiver, moved: 0, subscriber: undefined };
  const personOf = await lockPeople(client, t, [receiver, ...from]);
  const target = personOf.get(receiver);
  const senders = [...new Set(from.flatMap((id) => personOf.get(id) ?? []))].filter((key) => key !== target);
  if (senders.length === 0) {
    if (target === undefined) return { status: 'applied', receiver, moved: 0, subscriber: undefined };
    const { rows } = await client.query<{ record: Subscriber }>(`SELECT record FROM ${t.subscribers} WHERE customer_id = $1`, [target]);
    return { status: 'applied', receiver, moved: 0, subscriber: rows[0]?.record };
  }
  const reports = await client.query<{ at: number | null }>(`SELECT max(reported_activity_at) AS at FROM ${t.subscribers} WHERE customer_id = ANY($1::text[])`, [senders]);
  const destination = target ?? receiver;
  await recordMoved(client, t, senders, receiver);
  const moved = await client.query(
    `UPDATE ${t.events} SET customer_id = $1,
       body = ((jsonb_set(body::jsonb, '{app_user_id}', to_jsonb($2::text)) - 'original_app_user_id') - 'aliases')::json
     WHERE customer_id = ANY($3::text[])`,
    [destination, receiver, senders],
  );
  await client.query(`DELETE FROM ${t.subscribers} WHERE customer_id = ANY($1::text[])`, [senders]);
  await client.query(`DELETE FROM ${t.identities} WHERE customer_id = ANY($1::text[])`, [senders]);
  if (target === undefined) await addIdentities(client, t, [receiver], [receiver]);
  const subscriber = await regroupPeople(client, t, [destination], reports.rows[0]?.at ?? null, now, config);
  return { status: 'applied', receiver, moved: moved.rowCount ?? 0, subscriber };
}
