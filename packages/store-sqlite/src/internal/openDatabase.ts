/** Opening the SQLite file: directory, pragmas, migrations, and one clear line when any of it fails. */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate, SchemaVersionError } from './migrations.js';

/** How long a statement waits for another process's write lock before failing with SQLITE_BUSY. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Whether the path names SQLite's in-memory database (no file, no WAL). */
export const isMemory = (path: string): boolean => path === ':memory:' || path === '';

/** SQLite says "unable to open database file" for most failures; name the usual causes instead. */
function reasonFor(path: string, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'EEXIST' || code === 'ENOTDIR') return `a part of ${dirname(path)} exists and is not a directory`;
  if (code === 'SQLITE_CANTOPEN') {
    const kind = statSync(path, { throwIfNoEntry: false });
    if (kind?.isDirectory()) return 'it is a directory';
  }
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/**
 * Given a path (or ':memory:') and a busy timeout, returns the open, migrated database. Throws an
 * Error whose message is one line naming the path and the reason.
 */
export function openDatabase(path: string, busyTimeoutMs: number): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (!isMemory(path)) mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { timeout: busyTimeoutMs });
    // WAL: readers never block the writer. synchronous=NORMAL: a commit is in the WAL file before it
    // returns, so it survives the process being killed; only a power loss or OS crash can lose the
    // last commits (not a corrupt file). Checkpoints still fsync.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = OFF');
    migrate(db, path);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof SchemaVersionError) throw error; // already one clear line
    throw new Error(`Cannot open the SQLite store at ${path}: ${reasonFor(path, error)}`, { cause: error });
  }
}
