/**
 * The SQLite store's bulk import (`SubscriberStore.beginImport`, schema version 6). `append` stores
 * a batch of events in one `BEGIN IMMEDIATE` transaction as `applyEvents` does (same insert, same
 * identities, a merge of two persons folded at once), but reads and writes no record: it adds each
 * person it touched to `import_pending`, in the same transaction as its events. `finish` then
 * folds each pending person once from all its stored events (`SqlitePeople.refold`), a few hundred
 * persons per transaction, and removes their marks with their new rows. So a person whose rows come
 * far apart in the file (an export in time order) is read and written once, not once per batch,
 * and a process that dies before `finish` leaves the marks behind for the next session's `finish`.
 */
import type Database from 'better-sqlite3';
import { identityIdsOf, type ApplyOutcome, type HandledEvent, type ImportSession, type StoreContext } from '@tenure/core';
import type { SqliteMovedSubscriptions } from './sqliteMovedSubscriptions.js';
import type { SqlitePeople } from './sqlitePeople.js';

/** Persons folded per `finish` transaction: a few thousand events, tens of milliseconds of lock. */
const FINISH_BATCH = 500;
/** Ids a session remembers at most (about 100 bytes each); past it, it starts over. */
const MAX_REMEMBERED = 200_000;

/**
 * What a session remembers across its batches: each id's key (null for an id no person has) and the
 * persons it marked. True while nothing else changed identities or marks: another connection's
 * commit moves `data_version`, this connection's other writers move `changes`; then it is
 * forgotten. So a customer whose rows are far apart in the file is looked up and marked once.
 */
interface Remembered {
  keyOf: Map<string, string | null>;
  marked: Set<string>;
  /** `data_version` and `changes` after this session's last transaction. */
  seen: string;
}

/** What the session needs of the store: its identity index, its moved subscriptions, its event insert and its config check. */
export interface SqliteImportDeps {
  people: SqlitePeople;
  /** Routes an event of a transferred subscription to its receiver, as `applyEvents` does. */
  moved: SqliteMovedSubscriptions;
  /** Stores the event under its person's key; false for a duplicate id or occurrence. */
  insertEvent(event: HandledEvent, key: string): boolean;
  /** Re-materializes every row first when `ctx.config` is not the one the rows were built with. */
  ensureConfig(ctx: StoreContext): void;
}

/** Given the database and the store's parts, returns `beginImport`. */
export function createSqliteImport(db: Database.Database, deps: SqliteImportDeps): (ctx: StoreContext) => ImportSession {
  const { people, moved, insertEvent } = deps;
  const mark = db.prepare<[string]>('INSERT INTO import_pending (customer_id) VALUES (?) ON CONFLICT DO NOTHING');
  const unmark = db.prepare<[string]>('DELETE FROM import_pending WHERE customer_id = ?');
  const pendingFirst = db.prepare<[number], string>('SELECT customer_id FROM import_pending ORDER BY customer_id LIMIT ?').pluck();
  const pendingAfter = db.prepare<[string, number], string>('SELECT customer_id FROM import_pending WHERE customer_id > ? ORDER BY customer_id LIMIT ?').pluck();
  const countPending = db.prepare<[], number>('SELECT count(*) FROM import_pending').pluck();
  /** Marks removed by any session's `finish` on this connection. */
  let unmarked = 0;
  const stateOf = () => `${db.pragma('data_version', { simple: true }) as number}:${people.changes}:${unmarked}`;

  const append = db.transaction((events: readonly HandledEvent[], ctx: StoreContext, remembered: Remembered): ApplyOutcome['status'][] => {
    if (remembered.seen !== stateOf() || remembered.keyOf.size > MAX_REMEMBERED) {
      remembered.keyOf.clear();
      remembered.marked.clear();
    }
    remembered.seen = ''; // forgotten next time unless this transaction commits (a rollback undoes what it learnt)
    const { keyOf, marked } = remembered;
    const statuses = events.map((delivered): ApplyOutcome['status'] => {
      const event = moved.route(delivered);
      const keys: string[] = [];
      const unknown: string[] = [];
      for (const id of identityIdsOf(event)) {
        let key = keyOf.get(id);
        if (key === undefined) keyOf.set(id, (key = people.keyOf(id) ?? null));
        if (key === null) unknown.push(id);
        else if (!keys.includes(key)) keys.push(key);
      }
      let key = keys[0] ?? event.app_user_id;
      if (!insertEvent(event, key)) return 'duplicate';
      if (unknown.length > 0) {
        people.add(key, unknown);
        for (const id of unknown) keyOf.set(id, key);
      }
      if (keys.length > 1) {
        // Ids of several persons: one person from now on, folded now as `applyEvents` does (rare).
        key = people.regroup(keys, null, ctx).customer_id;
        keyOf.clear();
      }
      if (!marked.has(key)) {
        marked.add(key);
        mark.run(key);
      }
      return 'applied';
    });
    remembered.seen = stateOf();
    return statuses;
  });

  /** Folds the pending persons after `after` (null: from the first); returns the last one, null when done, and how many. */
  const finishBatch = db.transaction((after: string | null, ctx: StoreContext): { last: string | null; done: number; folded: number } => {
    const keys = after === null ? pendingFirst.all(FINISH_BATCH) : pendingAfter.all(after, FINISH_BATCH);
    let folded = 0;
    for (const key of keys) {
      // No event under a mark: its person was merged into another since, which is marked too.
      if (people.refold(key, null, ctx) !== undefined) folded += 1;
      unmark.run(key);
    }
    unmarked += keys.length;
    return { last: keys.length < FINISH_BATCH ? null : keys[keys.length - 1]!, done: keys.length, folded };
  });

  return (begun) => {
    const remembered: Remembered = { keyOf: new Map(), marked: new Set(), seen: '' };
    return {
      async append(events) {
        return events.length === 0 ? [] : append.immediate(events, begun, remembered);
      },
      async finish(ctx, onProgress) {
        deps.ensureConfig(ctx);
        const total = countPending.get()!;
        let cursor: string | null = null;
        let done = 0;
        let folded = 0;
        do {
          const batch: { last: string | null; done: number; folded: number } = finishBatch.immediate(cursor, ctx);
          cursor = batch.last;
          done += batch.done;
          folded += batch.folded;
          onProgress?.(done, Math.max(total, done));
          await new Promise<void>((resolve) => setImmediate(resolve)); // let the process's other work run between batches
        } while (cursor !== null);
        return folded;
      },
    };
  };
}
