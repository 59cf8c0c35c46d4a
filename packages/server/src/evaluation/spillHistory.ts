/**
 * A history too large for memory, spilled once to a temporary SQLite file indexed by customer and
 * walked back customer by customer, so `tenure backtest` holds one customer at a time whatever the
 * history's size (docs/backtesting.md, cost at scale). Duplicates are dropped as the core drops them
 * (`groupHistory`): the first delivery of each event id, of the deliveries of one transaction
 * occurrence the smallest id, a report repeated for a customer and instant once; each customer's
 * events come back in time order, ties in file order.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transactionOccurrenceOf, type CustomerHistory, type GroupedHistory, type HandledEvent, type StoredRecord } from '@tenure/core';
import type Database from 'better-sqlite3';
import type { ImportFormat } from '../cli/storeData/dataArgs.js';
import { readRecords, type HistoryTally, type ReadProgress } from './readHistory.js';

/** Records per transaction while spilling. */
const BATCH = 10_000;
const PREFIX = 'tenure-history-';

/** A spilled history: the grouped history to walk, what reading the file counted, and `close` (removes the file). */
export interface SpilledHistory {
  history: GroupedHistory;
  tally: HistoryTally;
  close(): void;
}

/** Repeated values read per query: a file imported twice repeats every id, more than memory holds at millions of events. */
const REPEATS_PAGE = 1_000;

/**
 * Calls `each` with every value of `column` held by two or more events, a page at a time in the
 * column's order (each page's calls in one transaction), so no list of them is held whole.
 * `condition` is the column with any condition of its partial index, compared to the page's start.
 */
function forEachRepeated(db: Database.Database, column: 'id' | 'occurrence', condition: string, each: (value: string) => void): void {
  const page = db.prepare(`SELECT ${column} FROM events WHERE ${condition} > ? GROUP BY ${column} HAVING COUNT(*) > 1 ORDER BY ${column} LIMIT ${REPEATS_PAGE}`).pluck();
  const run = db.transaction((values: string[]) => values.forEach(each));
  for (let after = ''; ; ) {
    const values = page.all(after) as string[];
    run(values);
    if (values.length < REPEATS_PAGE) return;
    after = values[values.length - 1]!;
  }
}

/** Removes the temporary files of runs whose process is gone (a run stopped by a signal cannot remove its own). */
function removeOrphans(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^tenure-history-(\d+)-/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(dir, name), { recursive: true, force: true });
    }
  }
}

/**
 * Given a history file, its format and an optional progress callback, spills the file to a
 * temporary SQLite database (in `TMPDIR`, else the system's temporary directory) and resolves with
 * the history grouped by customer, streamed from it, or with one line saying why the file cannot be
 * used (as `readHistory`). Call `close` when done: it closes and removes the file.
 *
 * @example
 * const spilled = await spillHistory('history.ndjson', 'ndjson');
 * if (spilled.ok) try { backtestHistory(spilled.value.history, options); } finally { spilled.value.close(); }
 */
export async function spillHistory(path: string, format: ImportFormat, onProgress?: ReadProgress): Promise<{ ok: true; value: SpilledHistory } | { ok: false; error: string }> {
  const { default: Sqlite } = await import('better-sqlite3');
  const base = tmpdir();
  removeOrphans(base);
  const dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
  const file = join(dir, 'history.db');
  const db = new Sqlite(file);
  let reader: Database.Database | undefined;
  const remove = () => {
    reader?.close();
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // A scratch file: nothing to recover after a crash, so no journal and no syncs.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -32768');
    // No unique index on `id` while loading: every event is stored, and later deliveries of an id are
    // dropped once the file is read (below). A unique index kept during the load costs a random B-tree
    // insert per event: half the load's time (412 k events, 5.0 → 2.4 s; docs/backtesting.md, cost at scale).
    db.exec(`CREATE TABLE events (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, customer TEXT NOT NULL, at INTEGER NOT NULL, occurrence TEXT, body TEXT NOT NULL);
             CREATE TABLE activity (customer TEXT NOT NULL, at INTEGER NOT NULL)`);
    const insertEvent = db.prepare('INSERT INTO events (id, customer, at, occurrence, body) VALUES (?, ?, ?, ?, ?)');
    const insertActivity = db.prepare('INSERT INTO activity (customer, at) VALUES (?, ?)');
    let pending: StoredRecord[] = [];
    let rawEvents = 0;
    let rawActivity = 0;
    let first = Infinity;
    let last = -Infinity;
    const flush = db.transaction((records: StoredRecord[]) => {
      for (const r of records) {
        if (r.kind === 'event') insertEvent.run(r.event.id, r.event.app_user_id, r.event.event_timestamp_ms, transactionOccurrenceOf(r.event) ?? null, JSON.stringify(r.event));
        else insertActivity.run(r.customer_id, r.at);
      }
    });
    const read = await readRecords(
      path,
      format,
      (record) => {
        const at = record.kind === 'event' ? record.event.event_timestamp_ms : record.at;
        if (at < first) first = at;
        if (at > last) last = at;
        if (record.kind === 'event') rawEvents += 1;
        else rawActivity += 1;
        pending.push(record);
        if (pending.length >= BATCH) {
          flush(pending);
          pending = [];
        }
      },
      onProgress,
    );
    if (!read.ok) {
      remove();
      return read;
    }
    flush(pending);
    pending = [];

    // Of the deliveries of one event id, the first in the file (the smallest seq), as the core keeps it;
    // the index is built once, by sorting, after the load.
    db.exec('CREATE INDEX events_id ON events (id, seq)');
    const laterDeliveries = db.prepare('DELETE FROM events WHERE id = ? AND seq > (SELECT MIN(seq) FROM events WHERE id = ?)');
    forEachRepeated(db, 'id', 'id', (id) => laterDeliveries.run(id, id));
    // Of the deliveries of one transaction occurrence, the smallest id (code unit order, as the core chooses).
    db.exec('CREATE INDEX events_occurrence ON events (occurrence) WHERE occurrence IS NOT NULL');
    const deliveries = db.prepare('SELECT seq, id FROM events WHERE occurrence = ?');
    const drop = db.prepare('DELETE FROM events WHERE seq = ?');
    forEachRepeated(db, 'occurrence', 'occurrence IS NOT NULL AND occurrence', (occurrence) => {
      const rows = deliveries.all(occurrence) as { seq: number; id: string }[];
      const chosen = rows.reduce((a, b) => (b.id < a.id ? b : a));
      for (const row of rows) if (row !== chosen) drop.run(row.seq);
    });
    db.exec('CREATE INDEX events_walk ON events (customer, at, seq); CREATE INDEX activity_walk ON activity (customer, at)');
    const events = db.prepare('SELECT COUNT(*) FROM events').pluck().get() as number;
    const customers = db.prepare('SELECT COUNT(DISTINCT customer) FROM events').pluck().get() as number;
    const activity = db.prepare('SELECT COUNT(*) FROM (SELECT DISTINCT customer, at FROM activity)').pluck().get() as number;

    // A second connection reads each customer's reports while the first streams the events.
    reader = new Sqlite(file, { readonly: true });
    const reportsOf = reader.prepare('SELECT DISTINCT at FROM activity WHERE customer = ? ORDER BY at').pluck();
    const walk = db.prepare('SELECT customer, body FROM events ORDER BY customer, at, seq');
    function* customersOf(): Generator<CustomerHistory> {
      let current: string | undefined;
      let own: HandledEvent[] = [];
      for (const row of walk.iterate() as IterableIterator<{ customer: string; body: string }>) {
        if (row.customer !== current) {
          if (current !== undefined) yield { events: own, activity: reportsOf.all(current) as number[] };
          current = row.customer;
          own = [];
        }
        own.push(JSON.parse(row.body) as HandledEvent);
      }
      if (current !== undefined) yield { events: own, activity: reportsOf.all(current) as number[] };
    }
    const history: GroupedHistory = {
      customers: { [Symbol.iterator]: customersOf },
      summary: { events, duplicates: rawEvents - events + rawActivity - activity, activity, customers },
      span: first === Infinity ? null : { first, last },
    };
    return { ok: true, value: { history, tally: read.value, close: remove } };
  } catch (error) {
    remove();
    throw error;
  }
}
