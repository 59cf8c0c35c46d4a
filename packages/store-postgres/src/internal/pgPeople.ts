/**
 * One person under several ids on PostgreSQL (docs/rules.md §2, aliases; schema version 4):
 * `identities` maps every id a person's stored events name (`identityIdsOf`) to the key of its
 * record (`subscribers.customer_id`, the `app_user_id` of its latest event), and events are stored
 * under that key. Locking: a writer takes the advisory locks of the ids it names, reads their
 * keys, takes the keys' locks too and reads again until nothing moved; every change of an
 * identity row is made holding the lock of the key it leaves, so once a writer holds its keys the
 * mapping it read stays true until it commits. Several writers may lock in different orders
 * here; PostgreSQL breaks such a deadlock and `withTransaction` runs the loser again.
 */
import { compareIds, foldEvents, materializeAtRisk, recordActivity, type HandledEvent, type Subscriber, type TenureConfig } from '@tenure/core';
import type pg from 'pg';
import { prepared } from './prepared.js';
import { RowColumns, UNNEST_ROWS } from './subscriberRows.js';
import type { Tables } from './tables.js';

/** Rounds of "lock the keys, read again" before giving up (each round means another writer moved them meanwhile). */
const MAX_ROUNDS = 8;

/**
 * Inside an open transaction: takes the locks of `ids` and of the records they belong to, and
 * resolves with each known id's key (ids no record has are absent), stable until the commit.
 */
export async function lockPeople(client: pg.ClientBase, t: Tables, ids: readonly string[]): Promise<Map<string, string>> {
  const locked = new Set<string>();
  const lock = async (more: readonly string[]) => {
    const fresh = [...new Set(more)].filter((id) => !locked.has(id)).sort(compareIds);
    if (fresh.length === 0) return;
    await client.query(prepared(`SELECT ${t.customerLock('c')} FROM (SELECT c FROM unnest($1::text[]) AS c ORDER BY c COLLATE "C") AS l`, [fresh]));
    for (const id of fresh) locked.add(id);
  };
  await lock(ids);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { rows } = await client.query<{ id: string; customer_id: string }>(`SELECT id, customer_id FROM ${t.identities} WHERE id = ANY($1::text[])`, [ids]);
    const keyOf = new Map(rows.map((r) => [r.id, r.customer_id]));
    const unlocked = [...keyOf.values()].filter((key) => !locked.has(key));
    if (unlocked.length === 0) return keyOf;
    await lock(unlocked);
  }
  throw Object.assign(new Error('the ids of a person kept moving while taking their locks'), { code: '40001' });
}

/** Inside an open transaction: the given ids now find the record `key` (new ids, or ids moving to it). */
export async function addIdentities(client: pg.ClientBase, t: Tables, ids: readonly string[], keys: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await client.query(
    `INSERT INTO ${t.identities} (id, customer_id) SELECT * FROM unnest($1::text[], $2::text[])
     ON CONFLICT (id) DO UPDATE SET customer_id = excluded.customer_id`,
    [ids, keys],
  );
}

/**
 * Inside an open transaction holding the keys' locks: folds the events stored under `keys` into one
 * record (with the latest reported activity of their rows and `reported`), keyed by the fold's
 * `customer_id`; moves the events and identities there, replaces the rows (the totals' triggers
 * follow) and materializes the row at `now`. Events with an id in `pending` (stored by this batch,
 * not applied yet) are left out of the fold; they move with the others and are applied after.
 * Resolves with the record.
 */
export async function regroupPeople(
  client: pg.ClientBase,
  t: Tables,
  keys: readonly string[],
  reported: number | null,
  now: number,
  config: TenureConfig,
  pending: readonly string[] = [],
): Promise<Subscriber> {
  const kept = await client.query<{ at: number | null }>(`SELECT max(reported_activity_at) AS at FROM ${t.subscribers} WHERE customer_id = ANY($1::text[])`, [keys]);
  const stored = kept.rows[0]?.at ?? null;
  const latest = stored === null ? reported : reported === null ? stored : Math.max(stored, reported);
  const events = await client.query<{ body: HandledEvent }>(
    `SELECT body FROM ${t.events} WHERE customer_id = ANY($1::text[]) AND NOT (id = ANY($2::text[])) ORDER BY seq`,
    [keys, pending],
  );
  const folded = foldEvents(events.rows.map((r) => r.body))!; // every key has at least one event
  const subscriber = latest === null ? folded : recordActivity(folded, latest);
  const key = subscriber.customer_id;
  await client.query(`UPDATE ${t.events} SET customer_id = $1 WHERE customer_id = ANY($2::text[]) AND customer_id <> $1`, [key, keys]);
  await client.query(`UPDATE ${t.identities} SET customer_id = $1 WHERE customer_id = ANY($2::text[]) AND customer_id <> $1`, [key, keys]);
  await client.query(`DELETE FROM ${t.subscribers} WHERE customer_id = ANY($1::text[]) OR customer_id = $2`, [keys, key]);
  const columns = new RowColumns();
  columns.push(subscriber, materializeAtRisk(subscriber, now, config).row);
  await client.query(
    `INSERT INTO ${t.subscribers} (customer_id, record, state, score, band, top_action, top_urgency, top_reason, top_priority, assessed_at, rescore_at, monthly_value_cents)
     SELECT * FROM ${UNNEST_ROWS}`,
    columns.params(),
  );
  if (latest !== null) await client.query(`UPDATE ${t.subscribers} SET reported_activity_at = $1 WHERE customer_id = $2`, [latest, key]);
  return subscriber;
}
