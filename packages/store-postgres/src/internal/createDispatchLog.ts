/**
 * The dispatch log in two tables: `dispatches` (attempts, ids from a sequence, so increasing) and
 * `cooldowns` (one mark per alert key). Shared by every replica on the database, so a restart or a
 * second replica never re-sends an alert inside its cooldown.
 */
import type { DispatchLog, DispatchRecord, DispatchTally } from '@tenure/core';
import type pg from 'pg';
import type { Tables } from './tables.js';

/** Claims between two deletions of expired cooldown marks (per process). */
const PRUNE_EVERY = 1000;

/** Given a pool and the tables, returns the dispatch log stored there. */
export function createDispatchLog(pool: pg.Pool, t: Tables): DispatchLog {
  const columns = 'id, at, customer_id, action, urgency, risk_score, channel, outcome, attempt, error, trigger';
  let claimsSincePrune = 0;
  return {
    async append(entry) {
      const { rows } = await pool.query<DispatchRecord>(
        `INSERT INTO ${t.dispatches} (at, customer_id, action, urgency, risk_score, channel, outcome, attempt, error, trigger)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${columns}`,
        [entry.at, entry.customer_id, entry.action, entry.urgency, entry.risk_score, entry.channel, entry.outcome, entry.attempt, entry.error, entry.trigger],
      );
      return rows[0]!;
    },
    async list({ limit, before, customer_id, since }) {
      // One statement per combination of filters, so each is planned on its index (version 4):
      // (customer_id, id) for one customer, (at, ...) for a window, the primary key otherwise.
      const where = ['id < $1'];
      const params: unknown[] = [before ?? Number.MAX_SAFE_INTEGER];
      if (customer_id !== undefined) where.push(`customer_id = $${params.push(customer_id)}`);
      if (since !== undefined) where.push(`at >= $${params.push(since)}`);
      const { rows } = await pool.query<DispatchRecord>(
        `SELECT ${columns} FROM ${t.dispatches} WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${params.push(Math.max(0, limit) + 1)}`,
        params,
      );
      const more = rows.length > limit;
      const items = more ? rows.slice(0, limit) : rows;
      return { items, next_cursor: more && items.length > 0 ? items[items.length - 1]!.id : null };
    },
    async tally(since) {
      const { rows } = await pool.query<DispatchTally>(
        `SELECT channel, outcome, count(*)::int AS count FROM ${t.dispatches} WHERE at >= $1 GROUP BY channel, outcome`,
        [since],
      );
      return rows;
    },
    async claimCooldown(key, now, cooldownMs) {
      if (++claimsSincePrune >= PRUNE_EVERY) {
        claimsSincePrune = 0;
        await pool.query(`DELETE FROM ${t.cooldowns} WHERE until <= $1`, [now]);
      }
      // One statement: a concurrent claim of the same key waits for this one to commit, then finds
      // the mark live and claims nothing.
      const { rowCount } = await pool.query(
        `INSERT INTO ${t.cooldowns} AS c (key, until) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET until = excluded.until WHERE c.until <= $3`,
        [key, now + cooldownMs, now],
      );
      return rowCount === 1;
    },
    async releaseCooldown(key) {
      await pool.query(`DELETE FROM ${t.cooldowns} WHERE key = $1`, [key]);
    },
  };
}
