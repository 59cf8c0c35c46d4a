/**
 * The dashboard's daily trend records in `daily_snapshots` (schema version 4): one row per UTC day,
 * replaced by each `put` of that day in one autocommit statement, shared by every replica.
 */
import type { DailySnapshot, SnapshotStore } from '@tenure/core';
import type pg from 'pg';
import type { Tables } from './tables.js';

/** Given a pool and the tables, returns the snapshots stored there. */
export function createSnapshots(pool: pg.Pool, t: Tables): SnapshotStore {
  return {
    async put(snapshot) {
      await pool.query(
        `INSERT INTO ${t.dailySnapshots} (day, at, source, body) VALUES ($1, $2, $3, $4)
         ON CONFLICT (day) DO UPDATE SET at = excluded.at, source = excluded.source, body = excluded.body`,
        [snapshot.day, snapshot.at, snapshot.source, JSON.stringify(snapshot)],
      );
    },
    async range(from, to) {
      const { rows } = await pool.query<{ body: DailySnapshot }>(`SELECT body FROM ${t.dailySnapshots} WHERE day >= $1 AND day <= $2 ORDER BY day`, [from, to]);
      return rows.map((row) => row.body);
    },
  };
}
