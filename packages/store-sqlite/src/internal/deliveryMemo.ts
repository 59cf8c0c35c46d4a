/**
 * What the webhook path of one connection remembers between its group commits (issue #21): each
 * id's person key and each subscription's route (null: it never moved), so a delivery for a person
 * met recently runs no lookup statement, only its event's insert and (once per commit) its person's
 * read and write. True while nothing else wrote the file (`createWriteMark`: another connection's
 * commit or checkpoint, any other writer of this connection); otherwise forgotten whole at the next
 * commit's start, and after a commit that failed (its rollback undid what it learnt). Bounded: past
 * a limit, the oldest entry goes.
 *
 * Records are not remembered: tried (the 10,000 persons written last), it saved a webhook's read
 * and parse in bursts but cost more than it saved when customers interleave, every record then
 * surviving into the old generation before it is replaced (bench README, issue #21).
 */
import type Database from 'better-sqlite3';
import { createWriteMark } from './writeMark.js';

/** Ids and routes remembered, each (about 100 bytes an entry: ~20 MB at most). */
export const MEMO_IDS = 100_000;

/** The memo of one connection's deliveries. */
export interface DeliveryMemo {
  /** Id → the key of its person. */
  readonly keys: Map<string, string>;
  /** Original transaction id → the receiver it moved to, or null. */
  readonly routes: Map<string, string | null>;
  /** First in a deliveries transaction: forgets everything when anything else wrote since `keep`. */
  follow(): void;
  /** Last in a deliveries transaction, after its writes: what it remembers now holds. */
  keep(): void;
  /** Forgets everything: ids moved wholesale (a merge), or the transaction failed. */
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
  const forget = () => {
    keys.clear();
    routes.clear();
    kept = '';
  };
  return {
    keys,
    routes,
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
