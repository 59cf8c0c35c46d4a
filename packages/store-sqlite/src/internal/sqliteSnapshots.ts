/**
 * The dashboard's daily trend records in the store's file (`daily_snapshots`, schema version 4):
 * one row per UTC day, replaced by each `put` of that day, one autocommit statement each.
 */
import type Database from 'better-sqlite3';
import type { DailySnapshot, SnapshotStore } from '@tenure/core';

/** Given an open, migrated database, returns the snapshots kept in it. */
export function createSqliteSnapshots(db: Database.Database): SnapshotStore {
  const upsert = db.prepare<[string, number, string, string]>(
    `INSERT INTO daily_snapshots (day, at, source, body) VALUES (?, ?, ?, ?)
     ON CONFLICT (day) DO UPDATE SET at = excluded.at, source = excluded.source, body = excluded.body`,
  );
  const range = db.prepare<[string, string], { body: string }>('SELECT body FROM daily_snapshots WHERE day >= ? AND day <= ? ORDER BY day');
  return {
    async put(snapshot) {
      upsert.run(snapshot.day, snapshot.at, snapshot.source, JSON.stringify(snapshot));
    },
    async range(from, to) {
      return range.all(from, to).map((row) => JSON.parse(row.body) as DailySnapshot);
    },
  };
}
