/**
 * Whether anything else wrote the file since a transaction of this connection: another connection's
 * commit (or checkpoint) moves `data_version`, a writer of this connection `total_changes()`. Taken
 * at the end of a transaction's writes and again at the start of the next one: the same mark means
 * what the connection learnt in between still holds (sqliteImport.ts, deliveryMemo.ts).
 */
import type Database from 'better-sqlite3';

/** Given a connection, returns a function answering its current mark. */
export function createWriteMark(db: Database.Database): () => string {
  const probe = db.prepare<[], { version: number; changes: number }>('SELECT data_version AS version, total_changes() AS changes FROM pragma_data_version');
  return () => {
    const { version, changes } = probe.get()!;
    return `${version}:${changes}`;
  };
}
