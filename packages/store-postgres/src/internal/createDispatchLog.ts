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
  const columns = 'id, at, customer_id, action, urgency, risk_score, channel, outcome, attempt, error, trigger, delivery_id, target, detail, actor';
  let claimsSincePrune = 0;
  return {
    async append(entry) {
      // The id is drawn first, so a record that starts a delivery (no delivery_id given) names
      // itself in the same statement.
      const { rows } = await pool.query<DispatchRecord>(
        `INSERT INTO ${t.dispatches} (id, at, customer_id, action, urgency, risk_score, channel, outcome, attempt, error, trigger, delivery_id, target, detail, actor)
         SELECT n.id, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $11::boolean THEN n.id ELSE $12::bigint END, $13, $14, $15
         FROM (SELECT nextval(pg_get_serial_sequence($16, 'id')) AS id) AS n
         RETURNING ${columns}`,
        [
          entry.at, entry.customer_id, entry.action, entry.urgency, entry.risk_score, entry.channel, entry.outcome, entry.attempt, entry.error, entry.trigger,
          entry.delivery_id === undefined, entry.delivery_id ?? null, entry.target ?? null, entry.detail ?? null, entry.actor ?? null, t.dispatches,
        ],
      );
      return rows[0]!;
    },
    async unfinished(limit) {
      // Open records from the partial index (version 8), each kept only when no later record of its delivery exists.
      const { rows } = await pool.query<DispatchRecord>(
        `SELECT ${columns} FROM ${t.dispatches} AS d WHERE d.outcome IN ('pending', 'retrying') AND d.delivery_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM ${t.dispatches} AS n WHERE n.delivery_id = d.delivery_id AND n.id > d.id)
         ORDER BY d.delivery_id LIMIT $1`,
        [Math.max(0, Math.floor(limit))],
      );
      return rows;
    },
    async delivery(deliveryId) {
      const { rows } = await pool.query<DispatchRecord>(`SELECT ${columns} FROM ${t.dispatches} WHERE delivery_id = $1 ORDER BY id`, [deliveryId]);
      return rows;
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
