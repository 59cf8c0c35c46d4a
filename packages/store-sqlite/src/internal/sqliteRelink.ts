/**
 * The first pass of `tenure replay` in the SQLite file (docs/storage.md, replay): persons stored
 * apart that the identity rule makes one (docs/rules.md §2, aliases) are merged, so a replay equals
 * delivering every stored event fresh. Live writes keep one invariant: every id a stored event names
 * (`identityIdsOf`) finds, in `identities`, the person the event is stored under. Records stored
 * before schema version 4 break it (the upgrade merged nothing); so `scan` reads every event's ids
 * (not its body) a page at a time and keeps the ids of the events that break it (memory: those ids
 * only), and `relink` applies the identity rule to each of them again, as a webhook naming those ids
 * would: the persons its ids find are folded into one (`SqlitePeople.regroup`), and ids no person
 * has join it.
 */
import type Database from 'better-sqlite3';
import { identityIdsOf, type HandledEvent, type StoreContext } from '@tenure/core';
import type { SqlitePeople } from './sqlitePeople.js';

/** Events read per page of the scan (a few milliseconds; other work runs between pages). */
const SCAN_PAGE = 10_000;

interface ScannedEvent {
  seq: number;
  id: string;
  customer_id: string;
  app_user_id: string;
  original_app_user_id: string | null;
  aliases: string | null;
}

/** The two steps of the merge before a replay. */
export interface SqliteRelink {
  /** Resolves with the ids of the stored events whose ids find another person than theirs, or none. */
  scan(): Promise<string[]>;
  /** Inside the caller's transaction: applies the identity rule to those events again; returns how many persons were merged away. */
  relink(eventIds: readonly string[], ctx: StoreContext): number;
}

/** Given the database and its identity index, returns the merge steps of replay. */
export function createSqliteRelink(db: Database.Database, people: SqlitePeople): SqliteRelink {
  const page = db.prepare<[number, number], ScannedEvent>(
    `SELECT seq, id, customer_id, json_extract(body, '$.app_user_id') AS app_user_id,
       json_extract(body, '$.original_app_user_id') AS original_app_user_id, json_extract(body, '$.aliases') AS aliases
     FROM events WHERE seq > ? ORDER BY seq LIMIT ?`,
  );
  const eventOf = db.prepare<[string], { customer_id: string; body: string }>('SELECT customer_id, body FROM events WHERE id = ?');
  return {
    async scan() {
      const linking: string[] = [];
      for (let after = 0; ; ) {
        const rows = page.all(after, SCAN_PAGE);
        for (const row of rows) {
          const aliases = row.aliases === null ? null : (JSON.parse(row.aliases) as string[]);
          const ids = identityIdsOf({ app_user_id: row.app_user_id, original_app_user_id: row.original_app_user_id, aliases });
          if (ids.some((id) => people.keyOf(id) !== row.customer_id)) linking.push(row.id);
        }
        if (rows.length < SCAN_PAGE) return linking;
        after = rows[rows.length - 1]!.seq;
        await new Promise<void>((resolve) => setImmediate(resolve)); // reads only: live writes go on between pages
      }
    },
    relink(eventIds, ctx) {
      let merged = 0;
      for (const id of eventIds) {
        const stored = eventOf.get(id);
        if (stored === undefined) continue;
        const key = stored.customer_id;
        const { keys, unknown } = people.resolve(identityIdsOf(JSON.parse(stored.body) as HandledEvent));
        const all = [key, ...keys.filter((k) => k !== key)];
        const target = all.length > 1 ? people.regroup(all, null, ctx).customer_id : key;
        merged += all.length - 1;
        if (unknown.length > 0) people.add(target, unknown);
      }
      return merged;
    },
  };
}
