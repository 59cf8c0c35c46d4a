/**
 * The SQLite store's bulk import (`SubscriberStore.beginImport`, schema version 6). `append` stores
 * a batch of events in one `BEGIN IMMEDIATE` transaction as `applyEvents` does (same insert, same
 * identities, a merge of two persons folded at once), but reads and writes no record: it adds each
 * person it touched to `import_pending`, in the same transaction as its events. `finish` then
 * folds each pending person once (`SqlitePeople.refold`), a few hundred persons per transaction,
 * and removes their marks with their new rows. So a person whose rows come far apart in the file
 * (an export in time order) is read and written once, not once per batch, and a process that dies
 * before `finish` leaves the marks behind for the next session's `finish`.
 *
 * A person the session met first (none of its ids known before) is folded as its events are
 * stored, in memory (`applyEvent`, whose order does not matter): `finish` writes that fold instead
 * of reading and parsing the events back, while nothing else wrote to the database since the
 * session's last transaction (another connection's commit moves `data_version`, a writer of this
 * connection `total_changes()`); otherwise, and past `MAX_HELD` persons, from the stored events.
 */
import type Database from 'better-sqlite3';
import { applyEvent, identityIdsOf, type ApplyOutcome, type HandledEvent, type ImportSession, type OccurrenceHolder, type StoreContext, type Subscriber } from '@tenure/core';
import type { SqliteMovedSubscriptions } from './sqliteMovedSubscriptions.js';
import type { SqlitePeople } from './sqlitePeople.js';
import { createWriteMark } from './writeMark.js';

/** Persons folded per `finish` transaction: a few thousand events, tens of milliseconds of lock. */
const FINISH_BATCH = 500;
/** Ids a session remembers at most (about 100 bytes each); past it, it starts over. */
const MAX_REMEMBERED = 200_000;
/** Persons whose fold a session holds at most (under 1 KB each, measured); the others are folded from their stored events. */
const MAX_HELD = 25_000;

/**
 * What a session remembers across its batches: each id's key (null for an id no person has), the
 * persons it marked, and the folds of the persons it met first. True while nothing else wrote:
 * another connection's commit moves `data_version`, this connection's other writers
 * `total_changes()`; then it is forgotten. So a customer whose rows are far apart in the file is
 * looked up and marked once, and a new one is not read back at the end.
 */
interface Remembered {
  keyOf: Map<string, string | null>;
  marked: Set<string>;
  /** Person key → the fold of exactly the events stored under it (every one stored by this session). */
  held: Map<string, Subscriber>;
  /** `data_version` and `total_changes()` after this session's last transaction ('' while one runs). */
  seen: string;
}

/** What the session needs of the store: its identity index, its moved subscriptions, its event insert and its config check. */
export interface SqliteImportDeps {
  people: SqlitePeople;
  /** Routes an event of a transferred subscription to its receiver, as `applyEvents` does. */
  moved: SqliteMovedSubscriptions;
  /** Stores the event under its person's key; false for a duplicate id or occurrence. */
  insertEvent(event: HandledEvent, key: string): boolean;
  /** Who holds a refused event's occurrence when no id of the event names that person (`ApplyOutcome.heldBy`). */
  holderOf(event: HandledEvent): OccurrenceHolder | undefined;
  /** Re-materializes every row first when `ctx.config` is not the one the rows were built with. */
  ensureConfig(ctx: StoreContext): void;
  /** Resolves once the store's writes are not held for the WAL checkpointer's last pass (`startCheckpointer`). */
  released(): Promise<void>;
}

/** Given the database and the store's parts, returns `beginImport`. */
export function createSqliteImport(db: Database.Database, deps: SqliteImportDeps): (ctx: StoreContext) => ImportSession {
  const { people, moved, insertEvent } = deps;
  const mark = db.prepare<[string]>('INSERT INTO import_pending (customer_id) VALUES (?) ON CONFLICT DO NOTHING');
  const unmark = db.prepare<[string]>('DELETE FROM import_pending WHERE customer_id = ?');
  const pendingFirst = db.prepare<[number], string>('SELECT customer_id FROM import_pending ORDER BY customer_id LIMIT ?').pluck();
  const pendingAfter = db.prepare<[string, number], string>('SELECT customer_id FROM import_pending WHERE customer_id > ? ORDER BY customer_id LIMIT ?').pluck();
  const countPending = db.prepare<[], number>('SELECT count(*) FROM import_pending').pluck();
  const stored = db.prepare<[string], number>('SELECT 1 FROM events WHERE id = ?').pluck();
  const stateOf = createWriteMark(db);
  /** Forgets what `remembered` knows when something else wrote since the session's last transaction. */
  const follow = (remembered: Remembered) => {
    if (remembered.seen === stateOf()) return;
    remembered.keyOf.clear();
    remembered.marked.clear();
    remembered.held.clear();
  };

  const append = db.transaction((events: readonly HandledEvent[], ctx: StoreContext, remembered: Remembered, elsewhere: [number, OccurrenceHolder][] | undefined): ApplyOutcome['status'][] => {
    follow(remembered);
    if (remembered.keyOf.size > MAX_REMEMBERED) {
      remembered.keyOf.clear();
      remembered.marked.clear();
    }
    remembered.seen = ''; // forgotten next time unless this transaction commits (a rollback undoes what it learnt)
    const { keyOf, marked, held } = remembered;
    const statuses = events.map((delivered, i): ApplyOutcome['status'] => {
      // An id stored already (a re-import finds nearly every one): nothing to route, resolve or write.
      if (stored.get(delivered.id) !== undefined) return 'duplicate';
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
      if (!insertEvent(event, key)) {
        // A new id refused for its occurrence: sought (one index probe) only for a caller that asks.
        const holder = elsewhere === undefined ? undefined : deps.holderOf(event);
        if (holder !== undefined) elsewhere!.push([i, holder]);
        return 'duplicate';
      }
      if (unknown.length > 0) {
        people.add(key, unknown);
        for (const id of unknown) keyOf.set(id, key);
      }
      if (keys.length > 1) {
        // Ids of several persons: one person from now on, folded now as `applyEvents` does (rare).
        for (const merged of keys) held.delete(merged);
        key = people.regroup(keys, null, ctx).customer_id;
        held.delete(key);
        keyOf.clear();
      } else if (keys.length === 0) {
        // A person no stored event named: every event under its key is this session's.
        if (held.size < MAX_HELD) held.set(key, applyEvent(undefined, event));
      } else {
        const fold = held.get(key);
        if (fold !== undefined) held.set(key, applyEvent(fold, event));
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
  const finishBatch = db.transaction((after: string | null, ctx: StoreContext, held: Map<string, Subscriber>): { last: string | null; done: number; folded: number } => {
    const keys = after === null ? pendingFirst.all(FINISH_BATCH) : pendingAfter.all(after, FINISH_BATCH);
    let folded = 0;
    for (const key of keys) {
      // No event under a mark: its person was merged into another since, which is marked too.
      if (people.refold(key, null, ctx, [], held.get(key)) !== undefined) folded += 1;
      held.delete(key);
      unmark.run(key);
    }
    return { last: keys.length < FINISH_BATCH ? null : keys[keys.length - 1]!, done: keys.length, folded };
  });

  return (begun) => {
    const remembered: Remembered = { keyOf: new Map(), marked: new Set(), held: new Map(), seen: '' };
    return {
      async append(events, onHeldElsewhere) {
        if (events.length === 0) return [];
        await deps.released(); // the WAL checkpointer's last pass: see startCheckpointer
        const elsewhere = onHeldElsewhere === undefined ? undefined : ([] as [number, OccurrenceHolder][]);
        const statuses = append.immediate(events, begun, remembered, elsewhere);
        for (const [i, holder] of elsewhere ?? []) onHeldElsewhere!(i, holder); // after the commit
        return statuses;
      },
      async finish(ctx, onProgress) {
        follow(remembered);
        deps.ensureConfig(ctx); // rewrites rows, never events: the folds still hold
        remembered.seen = stateOf();
        const total = countPending.get()!;
        let cursor: string | null = null;
        let done = 0;
        let folded = 0;
        do {
          follow(remembered); // a write since the last transaction (a webhook): its persons are read from the store
          const batch: { last: string | null; done: number; folded: number } = finishBatch.immediate(cursor, ctx, remembered.held);
          remembered.seen = stateOf();
          cursor = batch.last;
          done += batch.done;
          folded += batch.folded;
          onProgress?.(done, Math.max(total, done));
          await new Promise<void>((resolve) => setImmediate(resolve)); // let the process's other work run between batches
          await deps.released();
        } while (cursor !== null);
        return folded;
      },
    };
  };
}
