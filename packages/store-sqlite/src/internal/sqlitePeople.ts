/**
 * One person under several ids in the SQLite file (docs/rules.md §2, aliases; schema version 4):
 * `identities` maps every id a person's stored events name (`identityIdsOf`) to the key of its
 * record (`subscribers.customer_id`, the `app_user_id` of its latest event). An event is stored
 * under its person's key; when it names ids of several records, or its person's latest event now
 * names another id, `regroup` folds the union again under the new key: the events' `customer_id`
 * moves (each body keeps the `app_user_id` it was delivered with), the old rows go (the totals'
 * triggers follow) and every id of them finds the new row. `refold` is the same for one key, and
 * what an import session's `finish` runs for each person it touched. Runs inside the caller's
 * transaction.
 */
import type Database from 'better-sqlite3';
import { foldEvents, recordActivity, type HandledEvent, type StoreContext, type Subscriber } from '@tenure/core';
import type { Statements, StoredSubscriber } from './statements.js';

/** A person's stored events, in storage order: read through the timeline's index (customer_id first). */
export const EVENT_BODIES_OF_SQL = 'SELECT body FROM events WHERE customer_id = ? ORDER BY seq';

/** Writes a subscriber and its row over what was stored (undefined: a new one). */
export type SaveSubscriber = (subscriber: Subscriber, before: StoredSubscriber | undefined, ctx: StoreContext) => void;

/** The identity index of one connection and the re-fold of merged or renamed records. */
export interface SqlitePeople {
  /** The key of the record `id` belongs to, or undefined. */
  keyOf(id: string): string | undefined;
  /** The distinct keys of the records the ids belong to (in the order first met, by `keyOf`, by default the index's), and the ids no record has yet. */
  resolve(ids: readonly string[], keyOf?: (id: string) => string | undefined): { keys: string[]; unknown: string[] };
  /** The given ids now find the record `key`. */
  add(key: string, ids: readonly string[]): void;
  /** Forgets every id of the record `key` (a transfer's sender). */
  release(key: string): void;
  /** The latest reported activity of the rows of `keys`, or null. */
  reportedOf(keys: readonly string[]): number | null;
  /**
   * Folds the events stored under `keys` into one record with `reported` activity, keyed by the
   * fold's `customer_id`: moves the events and ids there, replaces the rows; returns the record.
   */
  regroup(keys: readonly string[], reported: number | null, ctx: StoreContext): Subscriber;
  /**
   * Folds the events stored under `key` into one record with the latest reported activity of
   * `reported` and of the rows of `key` and of `absorbed` (keys whose events and ids were just
   * moved to `key`), keyed by the fold's `customer_id`: moves the events and ids there, deletes
   * the other rows and writes the record and its row; returns the record, or undefined when no
   * event is stored under `key` (nothing changes). `folded`, when given, is the fold of exactly
   * the events stored under `key` (an import session's, kept as it stored them): they are then not
   * read again.
   */
  refold(key: string, reported: number | null, ctx: StoreContext, absorbed?: readonly string[], folded?: Subscriber): Subscriber | undefined;
}

/** Given the database, its statements and the store's save, returns the identity index. */
export function createSqlitePeople(db: Database.Database, s: Statements, save: SaveSubscriber): SqlitePeople {
  const selectKey = db.prepare<[string], { customer_id: string }>('SELECT customer_id FROM identities WHERE id = ?');
  const upsertId = db.prepare<[string, string]>(
    'INSERT INTO identities (id, customer_id) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET customer_id = excluded.customer_id WHERE customer_id IS NOT excluded.customer_id',
  );
  const moveIds = db.prepare<[string, string]>('UPDATE identities SET customer_id = ? WHERE customer_id = ?');
  const deleteIds = db.prepare<[string]>('DELETE FROM identities WHERE customer_id = ?');
  const moveEvents = db.prepare<[string, string]>('UPDATE events SET customer_id = ? WHERE customer_id = ?');
  const deleteSubscriber = db.prepare<[string]>('DELETE FROM subscribers WHERE customer_id = ?');
  const setReported = db.prepare<[number, string]>('UPDATE subscribers SET reported_activity_at = ? WHERE customer_id = ?');
  const bodiesOf = db.prepare<[string], string>(EVENT_BODIES_OF_SQL).pluck();

  /** The fold of every event stored under `key`, or undefined when there is none. */
  const foldStored = (key: string): Subscriber | undefined => foldEvents(bodiesOf.all(key).map((body) => JSON.parse(body) as HandledEvent));

  const refold = (key: string, reported: number | null, ctx: StoreContext, absorbed: readonly string[] = [], folded = foldStored(key)): Subscriber | undefined => {
    if (folded === undefined) return undefined;
    // The fold's key is one of the person's ids, so a row under it is one of these (every id finds one record).
    const rows: StoredSubscriber[] = [];
    let latest = reported;
    for (const id of [key, ...absorbed]) {
      const row = s.getStored.get(id);
      if (row === undefined) continue;
      rows.push(row);
      const at = row.reported_activity_at;
      if (at !== null && (latest === null || at > latest)) latest = at;
    }
    const subscriber = latest === null ? folded : recordActivity(folded, latest);
    const target = subscriber.customer_id;
    if (target !== key) {
      moveEvents.run(target, key);
      moveIds.run(target, key);
    }
    let before: StoredSubscriber | undefined;
    for (const row of rows) {
      if (row.customer_id === target) before = row;
      else deleteSubscriber.run(row.customer_id);
    }
    if (before === undefined && target !== key) deleteSubscriber.run(target); // none expected: `target` finds this person
    save(subscriber, before, ctx);
    if (latest !== null && latest !== before?.reported_activity_at) setReported.run(latest, target);
    return subscriber;
  };

  const keyOf = (id: string) => selectKey.get(id)?.customer_id;
  return {
    keyOf,
    resolve(ids, lookup = keyOf) {
      const keys: string[] = [];
      const unknown: string[] = [];
      for (const id of ids) {
        const key = lookup(id);
        if (key === undefined) unknown.push(id);
        else if (!keys.includes(key)) keys.push(key);
      }
      return { keys, unknown };
    },
    add(key, ids) {
      for (const id of ids) upsertId.run(id, key);
    },
    release(key) {
      deleteIds.run(key);
    },
    reportedOf(keys) {
      let reported: number | null = null;
      for (const key of keys) {
        const at = s.getStored.get(key)?.reported_activity_at ?? null;
        if (at !== null) reported = reported === null ? at : Math.max(reported, at);
      }
      return reported;
    },
    regroup(keys, reported, ctx) {
      // One person from now on, under the first key; `refold` names it and finds the other rows by their ids.
      const [first, ...others] = keys;
      for (const old of others) {
        moveEvents.run(first!, old);
        moveIds.run(first!, old);
      }
      return refold(first!, reported, ctx, others)!; // every key has at least one event
    },
    refold,
  };
}
