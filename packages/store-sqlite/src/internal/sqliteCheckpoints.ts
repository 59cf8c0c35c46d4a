/**
 * The store's checkpoints in its file (`checkpoints`, schema version 3): one row per name, written
 * by one autocommit statement each, so a value is as durable as a committed event once `set`
 * resolves and survives a restart.
 */
import type Database from 'better-sqlite3';
import type { CheckpointStore } from '@tenure/core';

/** Given an open, migrated database, returns the checkpoints kept in it. */
export function createSqliteCheckpoints(db: Database.Database): CheckpointStore {
  const select = db.prepare<[string], { value: string }>('SELECT value FROM checkpoints WHERE name = ?');
  const upsert = db.prepare<[string, string]>('INSERT INTO checkpoints (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
  const remove = db.prepare<[string]>('DELETE FROM checkpoints WHERE name = ?');
  return {
    async get(name) {
      return select.get(name)?.value;
    },
    async set(name, value) {
      upsert.run(name, value);
    },
    async delete(name) {
      remove.run(name);
    },
  };
}
