/**
 * What the webhook path of one connection remembers between its group commits (issue #21): each
 * id's person key, each subscription's route (null: it never moved), and the state and record of
 * the persons it wrote last. A delivery then runs no lookup statement and parses no record for a
 * person met recently, only its event's insert and its row's update. True while nothing else wrote
 * the file (`createWriteMark`: another connection's commit or checkpoint, any other writer of this
 * connection); otherwise forgotten whole at the next commit's start, and after a commit that failed
 * (its rollback undid what it learnt). Bounded: past a limit, the oldest entry goes.
 */
import type Database from 'better-sqlite3';
import type { Subscriber } from '@tenure/core';
import type { StoredState } from './statements.js';
import { createWriteMark } from './writeMark.js';

/** Persons whose state and record are remembered (a record is a few KB: tens of MB at most). */
export const MEMO_PERSONS = 10_000;
/** Ids and routes remembered, each (about 100 bytes an entry). */
export const MEMO_IDS = 100_000;

/** A person as its last write left it. */
export interface RememberedPerson {
  stored: StoredState;
  subscriber: Subscriber;
}

/** The memo of one connection's deliveries. */
export interface DeliveryMemo {
  /** Id → the key of its person. */
  readonly keys: Map<string, string>;
  /** Original transaction id → the receiver it moved to, or null. */
  readonly routes: Map<string, string | null>;
  /** Person key → its stored state and record. */
  readonly persons: Map<string, RememberedPerson>;
  /** First in a deliveries transaction: forgets everything when anything else wrote since `keep`. */
  follow(): void;
  /** Last in a deliveries transaction, after its writes: what it remembers now holds. */
  keep(): void;
  /** Forgets everything: ids or rows moved wholesale (a merge), or the transaction failed. */
  forget(): void;
}

/** Sets `key` in `map` as its newest entry, dropping the oldest past `limit`. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  if (map.size >= limit) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/** Given a connection, returns an empty memo. */
export function createDeliveryMemo(db: Database.Database): DeliveryMemo {
  const markOf = createWriteMark(db);
  let kept = '';
  const keys = new Map<string, string>();
  const routes = new Map<string, string | null>();
  const persons = new Map<string, RememberedPerson>();
  const forget = () => {
    keys.clear();
    routes.clear();
    persons.clear();
    kept = '';
  };
  return {
    keys,
    routes,
    persons,
    follow() {
      const mark = markOf();
      if (mark !== kept) forget();
      kept = ''; // until `keep`: a transaction that does not reach it is forgotten next time
    },
    keep() {
      kept = markOf();
    },
    forget,
  };
}
