/**
 * The store's checkpoints in `checkpoints` (schema version 3): one row per name, each change one
 * autocommit statement, so `set` resolves after the commit and the value is shared by every replica.
 */
import type { CheckpointStore } from '@tenure/core';
import type pg from 'pg';
import type { Tables } from './tables.js';

/** Given a pool and the tables, returns the checkpoints stored there. */
export function createCheckpoints(pool: pg.Pool, t: Tables): CheckpointStore {
  return {
    async get(name) {
      const { rows } = await pool.query<{ value: string }>(`SELECT value FROM ${t.checkpoints} WHERE name = $1`, [name]);
      return rows[0]?.value;
    },
    async set(name, value) {
      await pool.query(`INSERT INTO ${t.checkpoints} (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, [name, value]);
    },
    async delete(name) {
      await pool.query(`DELETE FROM ${t.checkpoints} WHERE name = $1`, [name]);
    },
  };
}
