/**
 * The dispatch log and cooldown marks in the store's file (`dispatches`, `cooldowns`), so a restart
 * or a second process on the same file never re-sends an alert inside its cooldown, and a delivery
 * recorded `pending` or `retrying` is found again after a crash (schema version 8).
 */
import type Database from 'better-sqlite3';
import type { DispatchEntry, DispatchLog, DispatchQuery, DispatchRecord, DispatchTally } from '@tenure/core';

interface DispatchRow extends Omit<DispatchRecord, 'trigger'> {
  triggered_by: DispatchRecord['trigger'];
}

/** Expired cooldown marks are deleted once per this many claims, so the table stays small. */
const PRUNE_EVERY = 1000;

/** Given an open, migrated database, returns the dispatch log kept in it. */
export function createSqliteDispatchLog(db: Database.Database): DispatchLog {
  const insert = db.prepare(
    `INSERT INTO dispatches (at, customer_id, action, urgency, risk_score, channel, outcome, attempt, error, triggered_by, delivery_id, target, detail, actor)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // A record that starts a delivery is its own delivery: its id, known once inserted, in the same transaction.
  const ownDelivery = db.prepare<[number]>('UPDATE dispatches SET delivery_id = id WHERE id = ?');
  // Schema version 8: open records from a partial index by (delivery_id, id), each kept only when no
  // later record of its delivery exists (a probe of the index by (delivery_id, id)).
  const unfinished = db.prepare<[number], DispatchRow>(
    `SELECT * FROM dispatches AS d WHERE d.outcome IN ('pending', 'retrying') AND d.delivery_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM dispatches AS n WHERE n.delivery_id = d.delivery_id AND n.id > d.id)
     ORDER BY d.delivery_id LIMIT ?`,
  );
  const delivery = db.prepare<[number], DispatchRow>('SELECT * FROM dispatches WHERE delivery_id = ? ORDER BY id');
  const append = db.transaction((entry: DispatchEntry): DispatchRecord => {
    const { lastInsertRowid } = insert.run(
      entry.at,
      entry.customer_id,
      entry.action,
      entry.urgency,
      entry.risk_score,
      entry.channel,
      entry.outcome,
      entry.attempt,
      entry.error,
      entry.trigger,
      entry.delivery_id ?? null,
      entry.target ?? null,
      entry.detail ?? null,
      entry.actor ?? null,
    );
    const id = Number(lastInsertRowid);
    if (entry.delivery_id === undefined) ownDelivery.run(id);
    return { id, ...entry, delivery_id: entry.delivery_id === undefined ? id : entry.delivery_id, target: entry.target ?? null, detail: entry.detail ?? null, actor: entry.actor ?? null };
  });
  const toRecord = ({ triggered_by, ...rest }: DispatchRow): DispatchRecord => ({ ...rest, trigger: triggered_by });
  const page = db.prepare<[number, number], DispatchRow>('SELECT * FROM dispatches WHERE id < ? ORDER BY id DESC LIMIT ?');
  // Schema version 4: one customer's records from (customer_id, id); records since an instant from
  // (at, channel, outcome), sorted by id after (the range is the window asked for, e.g. one day).
  const byCustomer = db.prepare<[string, number, number, number], DispatchRow>(
    'SELECT * FROM dispatches WHERE customer_id = ? AND id < ? AND at >= ? ORDER BY id DESC LIMIT ?',
  );
  const since = db.prepare<[number, number, number], DispatchRow>(
    'SELECT * FROM dispatches INDEXED BY dispatches_by_at WHERE at >= ? AND id < ? ORDER BY id DESC LIMIT ?',
  );
  const tally = db.prepare<[number], DispatchTally>(
    'SELECT channel, outcome, count(*) AS count FROM dispatches WHERE at >= ? GROUP BY channel, outcome',
  );
  const read = ({ before, customer_id, since: from }: DispatchQuery, n: number): DispatchRow[] => {
    const below = before ?? Number.MAX_SAFE_INTEGER;
    if (customer_id !== undefined) return byCustomer.all(customer_id, below, from ?? Number.MIN_SAFE_INTEGER, n);
    if (from !== undefined) return since.all(from, below, n);
    return page.all(below, n);
  };
  // One statement is atomic across connections: it takes the write lock before it reads the mark.
  const claim = db.prepare<[string, number, number], { key: string }>(
    `INSERT INTO cooldowns (key, until) VALUES (?, ?)
     ON CONFLICT (key) DO UPDATE SET until = excluded.until WHERE cooldowns.until <= ?
     RETURNING key`,
  );
  const release = db.prepare<[string]>('DELETE FROM cooldowns WHERE key = ?');
  const prune = db.prepare<[number]>('DELETE FROM cooldowns WHERE until <= ?');
  let claims = 0;

  return {
    async append(entry) {
      return append(entry);
    },
    async list(query) {
      const n = Math.max(0, Math.floor(query.limit));
      const rows = read(query, n + 1);
      const more = rows.length > n;
      const items = (more ? rows.slice(0, n) : rows).map(toRecord);
      const last = items[items.length - 1];
      return { items, next_cursor: more && last !== undefined ? last.id : null };
    },
    async unfinished(limit) {
      return unfinished.all(Math.max(0, Math.floor(limit))).map(toRecord);
    },
    async delivery(deliveryId) {
      return delivery.all(deliveryId).map(toRecord);
    },
    async tally(from) {
      return tally.all(from);
    },
    async claimCooldown(key, now, cooldownMs) {
      if (++claims >= PRUNE_EVERY) {
        claims = 0;
        prune.run(now);
      }
      return claim.get(key, now + cooldownMs, now) !== undefined;
    },
    async releaseCooldown(key) {
      release.run(key);
    },
  };
}
