// The contract's `storeApart` seam for SQLite: persons written straight into the file as a version
// 3 database upgraded to version 4 left them (events under their key, a record and row each, ids
// mapped like the upgrade does), through a second connection, with no merge.
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG, foldEvents, identityIdsOf, materializeAtRisk, recordActivity, transactionOccurrenceOf } from '@tenure/core';
import type { PersonStoredApart } from '@tenure/store-contract';
import { T0 } from '@tenure/testkit';
import { rowParams } from '../src/internal/rowMapping.js';
import { ROW_COLUMNS } from '../src/internal/statements.js';

/** Writes each person into the SQLite file at `path` under the `app_user_id` of its first event. */
export function storeApart(path: string, persons: readonly PersonStoredApart[]): void {
  const db = new Database(path);
  try {
    const insertEvent = db.prepare('INSERT INTO events (id, occurrence, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?, ?)');
    const insertRow = db.prepare(`INSERT INTO subscribers (${ROW_COLUMNS}, record, customer_id, reported_activity_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertId = db.prepare('INSERT OR IGNORE INTO identities (id, customer_id) VALUES (?, ?)');
    db.transaction(() => {
      for (const { events, reported } of persons) {
        const key = events[0]!.app_user_id;
        for (const e of events) insertEvent.run(e.id, transactionOccurrenceOf(e) ?? null, key, e.type, e.event_timestamp_ms, JSON.stringify(e));
        const folded = foldEvents(events)!;
        const record = reported === undefined ? folded : recordActivity(folded, reported);
        insertRow.run(...rowParams(materializeAtRisk(record, T0, DEFAULT_CONFIG).row), JSON.stringify(record), key, reported ?? null);
        insertId.run(key, key);
      }
      for (const { events } of persons) for (const id of events.flatMap(identityIdsOf)) insertId.run(id, events[0]!.app_user_id);
      // As the version 7 upgrade of a file holding events marks it: the next replay looks for persons stored apart.
      db.prepare("INSERT INTO meta (key, value) VALUES ('relink_pending', '1') ON CONFLICT (key) DO NOTHING").run();
    })();
  } finally {
    db.close();
  }
}
