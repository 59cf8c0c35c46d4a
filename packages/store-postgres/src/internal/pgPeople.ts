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
import { RowColumns, upsertRowsSql } from './subscriberRows.js';
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
  // One person from now on, under the first key; `refoldPeople` names it and finds the other rows by their ids.
  const [first, ...others] = keys;
  if (others.length > 0) {
    await client.query(`UPDATE ${t.events} SET customer_id = $1 WHERE customer_id = ANY($2::text[])`, [first, others]);
    await client.query(`UPDATE ${t.identities} SET customer_id = $1 WHERE customer_id = ANY($2::text[])`, [first, others]);
  }
  const [subscriber] = await refoldPeople(client, t, [first!], now, config, reported, pending, others);
  return subscriber!; // every key has at least one event
}

/**
 * Inside an open transaction holding the keys' locks: folds each person `keys` name from the events
 * stored under its key (but those with an id in `exclude`), with the latest reported activity of
 * `reported` and of the rows of its key (and of `absorbed`, keys whose events and ids were just
 * moved to the only key), keyed by the fold's `customer_id`: moves its events and ids there, deletes
 * its other rows and writes its record and row at `now`. Resolves with the records, in the order of
 * `keys` (undefined for a key with no event: nothing changes).
 */
export async function refoldPeople(
  client: pg.ClientBase,
  t: Tables,
  keys: readonly string[],
  now: number,
  config: TenureConfig,
  reported: number | null = null,
  exclude: readonly string[] = [],
  absorbed: readonly string[] = [],
): Promise<(Subscriber | undefined)[]> {
  const events = await client.query<{ customer_id: string; body: HandledEvent }>(
    `SELECT customer_id, body FROM ${t.events} WHERE customer_id = ANY($1::text[]) AND NOT (id = ANY($2::text[])) ORDER BY customer_id, seq`,
    [keys, exclude],
  );
  const eventsOf = new Map<string, HandledEvent[]>();
  for (const { customer_id, body } of events.rows) {
    const list = eventsOf.get(customer_id);
    if (list === undefined) eventsOf.set(customer_id, [body]);
    else list.push(body);
  }
  // The fold's key is one of the person's ids, so a row under it is one of these (every id finds one record).
  const idsOf = new Map<string, string[]>(keys.map((key) => [key, [key, ...absorbed]]));
  const rows = await client.query<{ customer_id: string; reported_activity_at: number | null }>(
    `SELECT customer_id, reported_activity_at FROM ${t.subscribers} WHERE customer_id = ANY($1::text[]) ORDER BY customer_id FOR UPDATE`,
    [[...idsOf.values()].flat()],
  );
  const reportedOf = new Map(rows.rows.map((r) => [r.customer_id, r.reported_activity_at]));

  const folded: (Subscriber | undefined)[] = [];
  const moved: { from: string[]; to: string[] } = { from: [], to: [] };
  const deleted: string[] = [];
  const columns = new RowColumns();
  const latestOf: { id: string[]; at: number[] } = { id: [], at: [] };
  for (const key of keys) {
    const own = eventsOf.get(key);
    if (own === undefined) {
      folded.push(undefined);
      continue;
    }
    let latest = reported;
    const ids = idsOf.get(key)!;
    for (const id of ids) {
      const at = reportedOf.get(id) ?? null;
      if (at !== null && (latest === null || at > latest)) latest = at;
    }
    const fold = foldEvents(own)!;
    const subscriber = latest === null ? fold : recordActivity(fold, latest);
    const target = subscriber.customer_id;
    if (target !== key) moved.from.push(key), moved.to.push(target);
    for (const id of ids) if (id !== target && reportedOf.has(id)) deleted.push(id);
    columns.push(subscriber, materializeAtRisk(subscriber, now, config).row);
    if (latest !== null) latestOf.id.push(target), latestOf.at.push(latest);
    folded.push(subscriber);
  }
  if (moved.from.length > 0) {
    for (const table of [t.events, t.identities]) {
      await client.query(`UPDATE ${table} AS e SET customer_id = u.target FROM unnest($1::text[], $2::text[]) AS u(key, target) WHERE e.customer_id = u.key`, [moved.from, moved.to]);
    }
  }
  if (deleted.length > 0) await client.query(`DELETE FROM ${t.subscribers} WHERE customer_id = ANY($1::text[])`, [deleted]);
  if (columns.length > 0) await client.query(upsertRowsSql(t.subscribers), columns.params());
  if (latestOf.id.length > 0) {
    await client.query(`UPDATE ${t.subscribers} AS s SET reported_activity_at = u.at FROM unnest($1::text[], $2::bigint[]) AS u(id, at) WHERE s.customer_id = u.id`, [latestOf.id, latestOf.at]);
  }
  return folded;
}
