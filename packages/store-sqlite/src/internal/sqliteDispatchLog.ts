/**
 * The dispatch log and cooldown marks in the store's file (`dispatches`, `cooldowns`), so a restart
 * or a second process on the same file never re-sends an alert inside its cooldown.
 */
import type Database from 'better-sqlite3';
import type { DispatchLog, DispatchRecord } from '@tenure/core';

interface DispatchRow extends Omit<DispatchRecord, 'trigger'> {
  triggered_by: DispatchRecord['trigger'];
}

/** Expired cooldown marks are deleted once per this many claims, so the table stays small. */
const PRUNE_EVERY = 1000;

/** Given an open, migrated database, returns the dispatch log kept in it. */
export function createSqliteDispatchLog(db: Database.Database): DispatchLog {
  const insert = db.prepare(
    `INSERT INTO dispatches (at, customer_id, action, urgency, risk_score, channel, outcome, attempt, error, triggered_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const page = db.prepare<[number, number], DispatchRow>('SELECT * FROM dispatches WHERE id < ? ORDER BY id DESC LIMIT ?');
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
      );
      return { id: Number(lastInsertRowid), ...entry };
    },
    async list({ limit, before }) {
      const n = Math.max(0, Math.floor(limit));
      const rows = page.all(before ?? Number.MAX_SAFE_INTEGER, n + 1);
      const more = rows.length > n;
      const items = (more ? rows.slice(0, n) : rows).map(({ triggered_by, ...rest }): DispatchRecord => ({ ...rest, trigger: triggered_by }));
      const last = items[items.length - 1];
      return { items, next_cursor: more && last !== undefined ? last.id : null };
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
