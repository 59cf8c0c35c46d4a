/**
 * Transferred subscriptions on PostgreSQL (docs/rules.md §2, Transfers; schema version 7):
 * `moved_subscriptions` maps each subscription a TRANSFER moved (its events'
 * `original_transaction_id`) to the receiving id of the latest transfer that moved it, and every
 * write routes an event through it before storing it (`routeMovedSubscription`), so an event of a
 * moved subscription delivered later lands on the receiver's person.
 *
 * Locking: a transfer changes where a subscription goes while holding the locks of the persons its
 * events leave and reach. A writer takes the locks of the ids its events name and of their persons
 * (`lockPeople`) and then reads the map: with nothing moved (the common case, one query), a transfer
 * that would move one of its subscriptions from the persons it names waits for its commit. Otherwise
 * it routes the events, takes the locks of the ids the routed events name and of their persons, and
 * reads the map again, until it is unchanged: every transfer that could change it then waits too.
 */
import { movedSubscriptionOf, routeMovedSubscription, type HandledEvent, type MovedSubscription } from '@tenure/core';
import type pg from 'pg';
import { lockPeople } from './pgPeople.js';
import type { Tables } from './tables.js';

/** Rounds of "route, lock, read again" before giving up (each means a transfer moved a subscription meanwhile). */
const MAX_ROUNDS = 8;

/** Inside an open transaction: the receiver of each moved subscription among the events' (no query when none has one). */
async function readMoved(client: pg.ClientBase, t: Tables, subscriptions: readonly string[]): Promise<Map<string, string>> {
  if (subscriptions.length === 0) return new Map();
  const { rows } = await client.query<{ subscription: string; receiver: string }>(
    `SELECT original_transaction_id AS subscription, receiver FROM ${t.movedSubscriptions} WHERE original_transaction_id = ANY($1::text[])`,
    [subscriptions],
  );
  return new Map(rows.map((r) => [r.subscription, r.receiver]));
}

const sameMap = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

/**
 * Inside an open transaction: routes `events` to the receivers of their moved subscriptions and
 * takes the locks of the ids `idsOf(routed)` names and of their persons; resolves with the routed
 * events (in order) and each known id's key, both stable until the commit.
 */
export async function lockRouted(
  client: pg.ClientBase,
  t: Tables,
  events: readonly HandledEvent[],
  idsOf: (routed: readonly HandledEvent[]) => string[],
): Promise<{ events: HandledEvent[]; personOf: Map<string, string> }> {
  const subscriptions = [...new Set(events.flatMap((event) => movedSubscriptionOf(event) ?? []))];
  const delivered = [...events];
  const personOf = await lockPeople(client, t, idsOf(delivered));
  let moved = await readMoved(client, t, subscriptions);
  if (moved.size === 0) return { events: delivered, personOf };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const routed = events.map((event) => routeMovedSubscription(event, (s) => moved.get(s)));
    const routedPersonOf = await lockPeople(client, t, idsOf(routed));
    const again = await readMoved(client, t, subscriptions);
    if (sameMap(moved, again)) return { events: routed, personOf: routedPersonOf };
    moved = again;
  }
  throw Object.assign(new Error('the subscriptions of a batch kept moving while taking their locks'), { code: '40001' });
}

/**
 * Inside an open transaction holding the locks of the persons under `keys`: every subscription of
 * the events stored under them now routes to `receiver` (called before the events move to it).
 */
export async function recordMoved(client: pg.ClientBase, t: Tables, keys: readonly string[], receiver: string): Promise<void> {
  // The same test as the core's `movedSubscriptionOf`: a non-empty string. DISTINCT: an upsert may not touch one row twice.
  await client.query(
    `INSERT INTO ${t.movedSubscriptions} (original_transaction_id, receiver)
       SELECT DISTINCT body ->> 'original_transaction_id', $2::text FROM ${t.events}
       WHERE customer_id = ANY($1::text[]) AND json_typeof(body -> 'original_transaction_id') = 'string' AND body ->> 'original_transaction_id' <> ''
     ON CONFLICT (original_transaction_id) DO UPDATE SET receiver = excluded.receiver`,
    [keys, receiver],
  );
}

/**
 * Inside an open transaction: restores `routes` (an import of an export), the latest of a
 * subscription winning; a route already held is not written again. No locks: an event of the
 * subscription committed concurrently is stored as if delivered before the route (on the ids it
 * names), as it would be before a transfer.
 */
export async function restoreMoved(client: pg.ClientBase, t: Tables, routes: readonly MovedSubscription[]): Promise<void> {
  // One row per subscription (an upsert may not touch one row twice): the last in the list.
  const latest = new Map(routes.map((r) => [r.original_transaction_id, r.receiver]));
  if (latest.size === 0) return;
  await client.query(
    `INSERT INTO ${t.movedSubscriptions} AS m (original_transaction_id, receiver)
       SELECT * FROM unnest($1::text[], $2::text[])
     ON CONFLICT (original_transaction_id) DO UPDATE SET receiver = excluded.receiver WHERE m.receiver <> excluded.receiver`,
    [[...latest.keys()], [...latest.values()]],
  );
}
