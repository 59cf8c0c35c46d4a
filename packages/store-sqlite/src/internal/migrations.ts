/**
 * The schema of a tenure SQLite file and the migrations that build it, versioned by
 * `PRAGMA user_version`. Version 1:
 *
 * ```
 * events       seq INTEGER PRIMARY KEY           storage order (records() and export follow it)
 *              id TEXT NOT NULL UNIQUE           event.id: the database catches duplicates
 *              customer_id TEXT NOT NULL         event.app_user_id
 *              type TEXT, event_timestamp_ms     for operators reading the file
 *              body TEXT                         JSON of the HandledEvent
 *              index (customer_id, seq)          one customer's events, for replay
 * subscribers  customer_id TEXT PRIMARY KEY      BINARY collation = code point order
 *              record TEXT                       JSON of the Subscriber
 *              reported_activity_at INTEGER      max app-reported activity (kept for replay/export)
 *              state, score, band,               the materialized at-risk row at assessed_at,
 *              top_action, top_urgency,          exact until rescore_at (NULL: until the next
 *              top_reason, top_priority,         event or activity)
 *              assessed_at, rescore_at
 *              index (score DESC, customer_id)          the at-risk order
 *              index (state, score DESC, customer_id)   the at-risk order within a state
 *              index (rescore_at) WHERE NOT NULL        rows that come due
 * meta         key TEXT PRIMARY KEY, value TEXT  'config_fingerprint'
 * dispatches   id INTEGER PRIMARY KEY AUTOINCREMENT (ids never reused), at, customer_id, action,
 *              urgency, risk_score, channel, outcome, attempt, error, triggered_by
 * cooldowns    key TEXT PRIMARY KEY, until INTEGER   an alert key is cooling down while until > now
 * ```
 *
 * Version 2 (revenue at risk):
 *
 * ```
 * subscribers     + monthly_value_cents INTEGER      monthlyValueCents of the record (0 for records
 *                                                    stored before; `tenure replay` recomputes)
 *                 index (state, score, monthly_value_cents DESC,  the revenue order within one
 *                        customer_id)                             (state, score) cell
 * at_risk_totals  state, score PRIMARY KEY, count, cents          rows and value per (state, score),
 *                 kept by triggers on subscribers in the same transaction, so a total sums at
 *                 most 101 rows per state whatever the number of subscribers
 * ```
 *
 * Version 3 (checkpoints, per-transaction dedupe, transfers):
 *
 * ```
 * checkpoints     name TEXT PRIMARY KEY, value TEXT   named progress markers of long operations
 *                                                     (backfill), see CheckpointStore
 * events          + occurrence TEXT                   the core's transactionOccurrenceOf (e.g.
 *                   unique where not null             'RENEWAL:<transaction_id>'): a second delivery
 *                                                     of one transaction under another id is a
 *                                                     duplicate. Filled at upgrade for the first
 *                                                     delivery of each (later copies stay NULL and
 *                                                     are dropped by foldEvents on replay)
 * transfers       id TEXT PRIMARY KEY,                every TRANSFER applied (deduplication, audit);
 *                 event_timestamp_ms, body            its effect is in the re-keyed events
 * ```
 *
 * Version 4 (one person under several ids, docs/rules.md §2):
 *
 * ```
 * identities      id TEXT PRIMARY KEY,                every id a person's events name (app_user_id,
 *                 customer_id TEXT NOT NULL           original_app_user_id, aliases) to its record;
 *                 index (customer_id)                 events.customer_id is now the person's key (the
 *                                                     app_user_id of its latest event). Filled at
 *                                                     upgrade with each subscriber's own id, then the
 *                                                     ids its stored events name (an id named by two
 *                                                     records goes to the smaller id); records are
 *                                                     not merged by the upgrade, but by the next
 *                                                     event naming ids of both
 * Version 5 (the dashboard's timeline, dispatch history and trends):
 *
 * ```
 * events           index (customer_id, event_timestamp_ms DESC,  one customer's timeline, newest
 *                         id DESC)                               first, a page per index range
 * dispatches       index (customer_id, id)               one customer's attempts, newest first
 *                  index (at, channel, outcome)          "alerts today": an index-only count
 * daily_snapshots  day TEXT PRIMARY KEY, at INTEGER,     one DailySnapshot per UTC day (the
 *                  source TEXT, body TEXT                sweep's latest, or folded from events)
 * ```
 *
 * Version 6 (bulk import, `beginImport`):
 *
 * ```
 * import_pending   customer_id TEXT PRIMARY KEY     a person an import session stored events of
 *                                                  and has not folded yet; written with the
 *                                                  events, removed with the person's new row, so
 *                                                  the next session's finish folds what a session
 *                                                  cut short left
 * ```
 *
 * Version 7 (a transfer moves its subscriptions' later events too, docs/rules.md §2):
 *
 * ```
 * moved_subscriptions  original_transaction_id TEXT     a subscription a TRANSFER moved, to the
 *                        PRIMARY KEY, receiver TEXT     receiving id of the latest transfer that
 *                                                       moved it: a later event of it is stored
 *                                                       re-keyed to the receiver. Empty at upgrade
 *                                                       (transfers applied before moved the events
 *                                                       stored then, and are not replayed)
 * meta relink_pending                                    set when the file held events: the next
 *                                                       replay scans for persons stored apart
 *                                                       (records from before version 4), then
 *                                                       removes it
 * ```
 *
 * Version 8 (durable deliveries: signed webhooks, offers; docs/storage.md):
 *
 * ```
 * dispatches       + delivery_id INTEGER    the id of the delivery's first record, shared by all
 *                                           its attempts (NULL for rows written before)
 *                  + target TEXT            a webhook endpoint's name, an offer's entitlement id
 *                  + detail TEXT            JSON: a webhook's exact body (resent as is), the
 *                                           receiver's answer to a refusal; an offer's grant
 *                  + actor TEXT             who acted, for manual actions (resend, offer)
 *                  index (delivery_id, id)  one delivery's records, oldest first
 *                  index (delivery_id, id) WHERE outcome IN ('pending',    what a restart must
 *                                                  'retrying')             still send
 * ```
 * Rows written before keep working: their new columns are NULL, and they belong to no delivery.
 *
 * Version 9 (occurrences keyed by store, docs/rules.md §2; version 8 is the dispatch log's):
 *
 * ```
 * events          occurrence rewritten                '<type>:<store>:<transaction_id>' (e.g.
 *                                                     'RENEWAL:APP_STORE:al2'; no store: 'RENEWAL::al2'),
 *                                                     for the first stored delivery of each key
 *                                                     (seq order), NULL for later ones; a scan of
 *                                                     the events table
 * ```
 */
import type Database from 'better-sqlite3';

/** Thrown for a file written by a newer schema; its message is the one line to show. */
export class SchemaVersionError extends Error {}

/** The core's `transactionOccurrenceOf` of an `events` row, in SQL (for rows stored before version 3). */
const OCCURRENCE_SQL = `(CASE WHEN type IN ('INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE', 'BILLING_ISSUE')
    AND json_type(body, '$.transaction_id') = 'text' AND json_extract(body, '$.transaction_id') <> ''
    THEN type || ':' || json_extract(body, '$.transaction_id') END)`;

/**
 * The core's `transactionOccurrenceOf` of an `events` row since version 9, in SQL:
 * `<type>:<store>:<transaction_id>`, the store empty when the event has none, `%` and `:` in it
 * escaped as `occurrenceStoreOf` does.
 */
const STORE_OCCURRENCE_SQL = `(CASE WHEN type IN ('INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE', 'BILLING_ISSUE')
    AND json_type(body, '$.transaction_id') = 'text' AND json_extract(body, '$.transaction_id') <> ''
    THEN type || ':' || (CASE WHEN json_type(body, '$.store') = 'text'
      THEN replace(replace(json_extract(body, '$.store'), '%', '%25'), ':', '%3A') ELSE '' END)
      || ':' || json_extract(body, '$.transaction_id') END)`;

/** Each entry moves the schema from version `index` to `index + 1`; append, never edit. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    customer_id TEXT NOT NULL,
    type TEXT NOT NULL,
    event_timestamp_ms INTEGER NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX events_by_customer ON events (customer_id, seq);

  CREATE TABLE subscribers (
    customer_id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    reported_activity_at INTEGER,
    state TEXT NOT NULL,
    score INTEGER NOT NULL,
    band TEXT NOT NULL,
    top_action TEXT,
    top_urgency TEXT,
    top_reason TEXT,
    top_priority INTEGER,
    assessed_at INTEGER NOT NULL,
    rescore_at INTEGER
  );
  CREATE INDEX subscribers_at_risk ON subscribers (score DESC, customer_id);
  CREATE INDEX subscribers_state_at_risk ON subscribers (state, score DESC, customer_id);
  CREATE INDEX subscribers_rescore ON subscribers (rescore_at) WHERE rescore_at IS NOT NULL;

  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE dispatches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    customer_id TEXT NOT NULL,
    action TEXT NOT NULL,
    urgency TEXT NOT NULL,
    risk_score REAL NOT NULL,
    channel TEXT NOT NULL,
    outcome TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    error TEXT,
    triggered_by TEXT NOT NULL
  );

  CREATE TABLE cooldowns (key TEXT PRIMARY KEY, until INTEGER NOT NULL);
  `,
  `
  ALTER TABLE subscribers ADD COLUMN monthly_value_cents INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX subscribers_cell_revenue ON subscribers (state, score, monthly_value_cents DESC, customer_id);

  CREATE TABLE at_risk_totals (
    state TEXT NOT NULL,
    score INTEGER NOT NULL,
    count INTEGER NOT NULL,
    cents INTEGER NOT NULL,
    PRIMARY KEY (state, score)
  ) WITHOUT ROWID;
  INSERT INTO at_risk_totals (state, score, count, cents)
    SELECT state, score, count(*), sum(monthly_value_cents) FROM subscribers GROUP BY state, score;

  CREATE TRIGGER at_risk_totals_insert AFTER INSERT ON subscribers BEGIN
    INSERT INTO at_risk_totals (state, score, count, cents) VALUES (NEW.state, NEW.score, 1, NEW.monthly_value_cents)
      ON CONFLICT (state, score) DO UPDATE SET count = count + 1, cents = cents + excluded.cents;
  END;
  CREATE TRIGGER at_risk_totals_update AFTER UPDATE OF state, score, monthly_value_cents ON subscribers
  WHEN OLD.state IS NOT NEW.state OR OLD.score IS NOT NEW.score OR OLD.monthly_value_cents IS NOT NEW.monthly_value_cents BEGIN
    UPDATE at_risk_totals SET count = count - 1, cents = cents - OLD.monthly_value_cents WHERE state = OLD.state AND score = OLD.score;
    INSERT INTO at_risk_totals (state, score, count, cents) VALUES (NEW.state, NEW.score, 1, NEW.monthly_value_cents)
      ON CONFLICT (state, score) DO UPDATE SET count = count + 1, cents = cents + excluded.cents;
  END;
  CREATE TRIGGER at_risk_totals_delete AFTER DELETE ON subscribers BEGIN
    UPDATE at_risk_totals SET count = count - 1, cents = cents - OLD.monthly_value_cents WHERE state = OLD.state AND score = OLD.score;
  END;
  `,
  `
  CREATE TABLE checkpoints (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

  ALTER TABLE events ADD COLUMN occurrence TEXT;
  UPDATE events SET occurrence = ${OCCURRENCE_SQL}
    WHERE seq IN (SELECT min(seq) FROM events WHERE ${OCCURRENCE_SQL} IS NOT NULL GROUP BY ${OCCURRENCE_SQL});
  CREATE UNIQUE INDEX events_occurrence ON events (occurrence) WHERE occurrence IS NOT NULL;

  CREATE TABLE transfers (id TEXT PRIMARY KEY, event_timestamp_ms INTEGER NOT NULL, body TEXT NOT NULL) WITHOUT ROWID;
  `,
  `
  CREATE TABLE identities (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL) WITHOUT ROWID;
  CREATE INDEX identities_by_customer ON identities (customer_id);
  INSERT INTO identities (id, customer_id) SELECT customer_id, customer_id FROM subscribers;
  INSERT OR IGNORE INTO identities (id, customer_id)
    SELECT id, min(customer_id) FROM (
      SELECT json_extract(e.body, '$.original_app_user_id') AS id, e.customer_id FROM events e
        WHERE json_type(e.body, '$.original_app_user_id') = 'text'
      UNION ALL
      SELECT a.value AS id, e.customer_id FROM events e, json_each(e.body, '$.aliases') a
        WHERE json_type(e.body, '$.aliases') = 'array' AND a.type = 'text'
    ) AS named
    WHERE customer_id IN (SELECT customer_id FROM subscribers)
    GROUP BY id;
  `,
  `
  CREATE INDEX events_timeline ON events (customer_id, event_timestamp_ms DESC, id DESC);
  CREATE INDEX dispatches_by_customer ON dispatches (customer_id, id);
  CREATE INDEX dispatches_by_at ON dispatches (at, channel, outcome);
  CREATE TABLE daily_snapshots (day TEXT PRIMARY KEY, at INTEGER NOT NULL, source TEXT NOT NULL, body TEXT NOT NULL) WITHOUT ROWID;
  `,
  `
  CREATE TABLE import_pending (customer_id TEXT PRIMARY KEY) WITHOUT ROWID;
  `,
  `
  CREATE TABLE moved_subscriptions (original_transaction_id TEXT PRIMARY KEY, receiver TEXT NOT NULL) WITHOUT ROWID;
  -- A file that held events before this version may hold persons stored apart (written before
  -- version 4): the next replay scans for them once (docs/storage.md, replay). A new file has none.
  INSERT INTO meta (key, value) SELECT 'relink_pending', '1' WHERE EXISTS (SELECT 1 FROM events);
  `,
  `
  ALTER TABLE dispatches ADD COLUMN delivery_id INTEGER;
  ALTER TABLE dispatches ADD COLUMN target TEXT;
  ALTER TABLE dispatches ADD COLUMN detail TEXT;
  ALTER TABLE dispatches ADD COLUMN actor TEXT;
  CREATE INDEX dispatches_by_delivery ON dispatches (delivery_id, id);
  CREATE INDEX dispatches_open ON dispatches (delivery_id, id) WHERE outcome IN ('pending', 'retrying');
  `,
  `
  -- Occurrences keyed by store too: every key again, the first stored delivery of each new key
  -- holding it (deliveries of two stores that version 3 kept apart as copies now count apart).
  UPDATE events SET occurrence = NULL WHERE occurrence IS NOT NULL;
  UPDATE events SET occurrence = ${STORE_OCCURRENCE_SQL}
    WHERE seq IN (SELECT min(seq) FROM events WHERE ${STORE_OCCURRENCE_SQL} IS NOT NULL GROUP BY ${STORE_OCCURRENCE_SQL});
  `,
  `
  -- One B-tree less written per stored event: the timeline's index (customer_id, event_timestamp_ms,
  -- id) finds a customer's events as this one did, and their order by seq is a small sort of one
  -- customer's rows (a fold does not depend on it). Measured on webhook ingest: 8 % less CPU a request.
  DROP INDEX IF EXISTS events_by_customer;
  `,
];

/**
 * The schema version this code writes and reads (`PRAGMA user_version` of a migrated file); a file
 * of a higher version is refused.
 *
 * @example
 * new Database(path).pragma('user_version', { simple: true }) === SCHEMA_VERSION; // after openSqliteStore({ path })
 */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Given an open database, brings its schema to `SCHEMA_VERSION` and returns the version it found.
 * Runs inside `BEGIN IMMEDIATE`, so of two processes opening one file at once, one migrates and the
 * other waits (busy timeout) and then finds nothing to do. Throws on a file of a newer version.
 */
export function migrate(db: Database.Database, path: string): number {
  return db.transaction(() => {
    const found = db.pragma('user_version', { simple: true }) as number;
    if (found > SCHEMA_VERSION) {
      throw new SchemaVersionError(
        `SQLite store at ${path} has schema version ${found}, newer than this version of tenure supports (${SCHEMA_VERSION}); upgrade tenure to open it`,
      );
    }
    for (let v = found; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    if (found !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
    return found;
  }).immediate();
}
