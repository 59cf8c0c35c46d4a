/**
 * The versioned schema and the migration runner: every replica runs it at start, under one
 * PostgreSQL advisory lock, so two replicas starting at the same moment apply each step once.
 */
import type pg from 'pg';
import { PostgresStoreError } from '../postgresStoreError.js';
import { quoteIdent } from './quoteIdent.js';

/** One schema step: applied once, in its own transaction, in version order. */
export interface Migration {
  version: number;
  name: string;
  /** The statements, given the quoted schema name. */
  sql: (s: string) => string;
}

/**
 * Every id and customer column uses the "C" collation so that `ORDER BY` is code point order, the
 * order of the core's `compareIds`, whatever the database's default collation.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'event log, subscribers with their at-risk rows, meta, dispatch log, cooldowns',
    sql: (s) => `
      CREATE TABLE ${s}.events (
        seq bigserial PRIMARY KEY,
        id text COLLATE "C" NOT NULL UNIQUE,
        customer_id text COLLATE "C" NOT NULL,
        type text NOT NULL,
        event_timestamp_ms bigint NOT NULL,
        body json NOT NULL
      );
      -- replay reads one customer's events in storage order
      CREATE INDEX events_customer_seq ON ${s}.events (customer_id, seq);

      CREATE TABLE ${s}.subscribers (
        customer_id text COLLATE "C" PRIMARY KEY,
        record json NOT NULL,
        -- the latest activity the app reported (kept apart from the record so replay and export keep it)
        reported_activity_at bigint,
        state text NOT NULL,
        score smallint NOT NULL,
        band text NOT NULL,
        top_action text,
        top_urgency text,
        top_reason text,
        top_priority smallint,
        assessed_at bigint NOT NULL,
        rescore_at bigint
      );
      CREATE INDEX subscribers_at_risk ON ${s}.subscribers (score DESC, customer_id);
      CREATE INDEX subscribers_state_at_risk ON ${s}.subscribers (state, score DESC, customer_id);
      CREATE INDEX subscribers_rescore ON ${s}.subscribers (rescore_at) WHERE rescore_at IS NOT NULL;

      CREATE TABLE ${s}.meta (
        key text COLLATE "C" PRIMARY KEY,
        value text NOT NULL
      );

      CREATE TABLE ${s}.dispatches (
        id bigserial PRIMARY KEY,
        at bigint NOT NULL,
        customer_id text COLLATE "C" NOT NULL,
        action text NOT NULL,
        urgency text NOT NULL,
        risk_score smallint NOT NULL,
        channel text NOT NULL,
        outcome text NOT NULL,
        attempt integer NOT NULL,
        error text,
        trigger text NOT NULL
      );

      CREATE TABLE ${s}.cooldowns (
        key text COLLATE "C" PRIMARY KEY,
        until bigint NOT NULL
      );`,
  },
  {
    version: 2,
    name: 'revenue at risk: monthly value per row, the revenue order per (state, score), totals as insert-only deltas',
    // Totals per (state, score) as insert-only delta rows, written by statement triggers in the
    // writing transaction: an aggregate row updated in place would be a lock every replica's writes
    // queue on, and two transactions moving subscribers between the same two cells in opposite
    // directions would deadlock. Reads sum the deltas of the cells they want; `compactDeltas`
    // folds them into one row per cell now and then.
    sql: (s) => `
      ALTER TABLE ${s}.subscribers ADD COLUMN monthly_value_cents bigint NOT NULL DEFAULT 0;
      CREATE INDEX subscribers_cell_revenue ON ${s}.subscribers (state, score, monthly_value_cents DESC, customer_id);

      CREATE TABLE ${s}.at_risk_deltas (
        state text NOT NULL,
        score smallint NOT NULL,
        count bigint NOT NULL,
        cents bigint NOT NULL
      );
      CREATE INDEX at_risk_deltas_cell ON ${s}.at_risk_deltas (state, score);
      INSERT INTO ${s}.at_risk_deltas (state, score, count, cents)
        SELECT state, score, count(*), sum(monthly_value_cents) FROM ${s}.subscribers GROUP BY state, score;

      CREATE FUNCTION ${s}.at_risk_deltas_of_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${s}.at_risk_deltas (state, score, count, cents)
          SELECT state, score, count(*), sum(monthly_value_cents) FROM new_rows GROUP BY state, score;
        RETURN NULL;
      END $$;
      CREATE FUNCTION ${s}.at_risk_deltas_of_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${s}.at_risk_deltas (state, score, count, cents)
          SELECT state, score, sum(n), sum(c) FROM (
            SELECT state, score, -1 AS n, -monthly_value_cents AS c FROM old_rows
            UNION ALL SELECT state, score, 1, monthly_value_cents FROM new_rows
          ) AS moves GROUP BY state, score HAVING sum(n) <> 0 OR sum(c) <> 0;
        RETURN NULL;
      END $$;
      CREATE FUNCTION ${s}.at_risk_deltas_of_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${s}.at_risk_deltas (state, score, count, cents)
          SELECT state, score, -count(*), -sum(monthly_value_cents) FROM old_rows GROUP BY state, score;
        RETURN NULL;
      END $$;
      CREATE TRIGGER at_risk_deltas_insert AFTER INSERT ON ${s}.subscribers
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.at_risk_deltas_of_insert();
      CREATE TRIGGER at_risk_deltas_update AFTER UPDATE ON ${s}.subscribers
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.at_risk_deltas_of_update();
      CREATE TRIGGER at_risk_deltas_delete AFTER DELETE ON ${s}.subscribers
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.at_risk_deltas_of_delete();`,
  },
  {
    version: 3,
    name: 'checkpoints (named progress markers of long operations); events unique per transaction occurrence; transfers',
    // occurrence: the core's transactionOccurrenceOf of then (e.g. 'RENEWAL:<transaction_id>'; version 9 adds the store), so a second
    // delivery of one transaction under another id is a duplicate. At upgrade the first delivery of
    // each (lowest seq) gets it; later copies stay NULL, and replay's foldEvents drops them.
    sql: (s) => `
      CREATE TABLE ${s}.checkpoints (
        name text COLLATE "C" PRIMARY KEY,
        value text NOT NULL
      );
      ALTER TABLE ${s}.events ADD COLUMN occurrence text COLLATE "C";
      UPDATE ${s}.events AS e SET occurrence = firsts.occurrence
        FROM (
          SELECT DISTINCT ON (occurrence) seq, occurrence FROM (
            SELECT seq, CASE WHEN type IN ('INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE', 'BILLING_ISSUE')
                AND json_typeof(body -> 'transaction_id') = 'string' AND body ->> 'transaction_id' <> ''
              THEN type || ':' || (body ->> 'transaction_id') END AS occurrence
            FROM ${s}.events
          ) AS keyed WHERE occurrence IS NOT NULL ORDER BY occurrence, seq
        ) AS firsts
        WHERE e.seq = firsts.seq;
      CREATE UNIQUE INDEX events_occurrence ON ${s}.events (occurrence) WHERE occurrence IS NOT NULL;
      -- every TRANSFER applied (deduplication, audit); its effect is in the re-keyed events
      CREATE TABLE ${s}.transfers (
        id text COLLATE "C" PRIMARY KEY,
        event_timestamp_ms bigint NOT NULL,
        body json NOT NULL
      );`
  },
  {
    version: 4,
    name: 'identities: one person under several ids (every id its events name, to its record)',
    // Filled with each subscriber's own id, then the ids its stored events name (an id named by two
    // records goes to the smaller id): records are not merged here, but by the next event naming both.
    sql: (s) => `
      CREATE TABLE ${s}.identities (
        id text COLLATE "C" PRIMARY KEY,
        customer_id text COLLATE "C" NOT NULL
      );
      CREATE INDEX identities_by_customer ON ${s}.identities (customer_id);
      INSERT INTO ${s}.identities (id, customer_id) SELECT customer_id, customer_id FROM ${s}.subscribers;
      INSERT INTO ${s}.identities (id, customer_id)
        SELECT id, min(customer_id COLLATE "C") FROM (
          SELECT e.body ->> 'original_app_user_id' AS id, e.customer_id FROM ${s}.events e
            WHERE json_typeof(e.body -> 'original_app_user_id') = 'string'
          UNION ALL
          SELECT a.id, e.customer_id FROM ${s}.events e, json_array_elements_text(e.body -> 'aliases') AS a(id)
            WHERE json_typeof(e.body -> 'aliases') = 'array'
        ) AS named
        WHERE customer_id IN (SELECT customer_id FROM ${s}.subscribers)
        GROUP BY id
        ON CONFLICT (id) DO NOTHING;`,
  },
  {
    version: 5,
    name: "the dashboard's timeline, dispatch history and trends: events by (customer, time, id), dispatches by customer and by time, daily snapshots",
    sql: (s) => `
      -- one customer's timeline, newest first: a page is one index range
      CREATE INDEX events_timeline ON ${s}.events (customer_id, event_timestamp_ms DESC, id DESC);
      -- one customer's attempts, newest first; "alerts today" as an index-only count
      CREATE INDEX dispatches_by_customer ON ${s}.dispatches (customer_id, id);
      CREATE INDEX dispatches_by_at ON ${s}.dispatches (at, channel, outcome);
      -- one DailySnapshot per UTC day: the sweep's latest of that day, or folded from the events
      CREATE TABLE ${s}.daily_snapshots (
        day text COLLATE "C" PRIMARY KEY,
        at bigint NOT NULL,
        source text NOT NULL,
        body json NOT NULL
      );`,
  },
  {
    version: 6,
    name: 'bulk import: the persons an import session has stored events of and not folded yet',
    sql: (s) => `
      -- written with a session's events, removed with the person's new row: a session cut short
      -- leaves its persons here for the next session's finish
      CREATE TABLE ${s}.import_pending (customer_id text COLLATE "C" PRIMARY KEY);`,
  },
  {
    version: 7,
    name: 'transferred subscriptions: a later event of a subscription a transfer moved goes to its receiver',
    // Empty at upgrade: the transfers applied before moved the events stored then; which of the
    // receivers' events they were is not recorded, so their later events still reach the sender.
    sql: (s) => `
      -- each subscription (original_transaction_id) a TRANSFER moved, to the receiving id of the
      -- latest transfer that moved it: every write re-keys a later event of it to that receiver
      CREATE TABLE ${s}.moved_subscriptions (
        original_transaction_id text COLLATE "C" PRIMARY KEY,
        receiver text COLLATE "C" NOT NULL
      );
      -- a schema that held events before this version may hold persons stored apart (written
      -- before version 4): the next replay scans for them once (docs/storage.md, replay)
      INSERT INTO ${s}.meta (key, value) SELECT 'relink_pending', '1' WHERE EXISTS (SELECT 1 FROM ${s}.events);`,
  },
  {
    version: 8,
    name: 'durable deliveries: dispatch records grouped by delivery, with target, detail and actor; the open deliveries indexed',
    // Rows written before keep working: their new columns are NULL and they belong to no delivery.
    sql: (s) => `
      -- the id of the delivery's first record, shared by all its attempts
      ALTER TABLE ${s}.dispatches ADD COLUMN delivery_id bigint;
      -- a webhook endpoint's name, an offer's entitlement id
      ALTER TABLE ${s}.dispatches ADD COLUMN target text;
      -- JSON text: a webhook's exact body (resent as is) and a refusal's answer; an offer's grant
      ALTER TABLE ${s}.dispatches ADD COLUMN detail text;
      -- who acted, for manual actions (resend, offer)
      ALTER TABLE ${s}.dispatches ADD COLUMN actor text;
      -- one delivery's records, oldest first
      CREATE INDEX dispatches_by_delivery ON ${s}.dispatches (delivery_id, id);
      -- what a restart must still send: records left pending or retrying
      CREATE INDEX dispatches_open ON ${s}.dispatches (delivery_id, id) WHERE outcome IN ('pending', 'retrying');`,
  },
  {
    version: 9,
    name: 'occurrences keyed by store too: <type>:<store>:<transaction_id>',
    // The core's transactionOccurrenceOf since this version: the store empty when the event has
    // none, '%' and ':' in it escaped as occurrenceStoreOf does. Every key again, the first stored
    // delivery (lowest seq) of each new key holding it: deliveries of two stores that version 3
    // kept apart as copies now count apart. A scan of the events table.
    sql: (s) => `
      UPDATE ${s}.events SET occurrence = NULL WHERE occurrence IS NOT NULL;
      UPDATE ${s}.events AS e SET occurrence = firsts.occurrence
        FROM (
          SELECT DISTINCT ON (occurrence) seq, occurrence FROM (
            SELECT seq, CASE WHEN type IN ('INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE', 'BILLING_ISSUE')
                AND json_typeof(body -> 'transaction_id') = 'string' AND body ->> 'transaction_id' <> ''
              THEN type || ':' || (CASE WHEN json_typeof(body -> 'store') = 'string'
                  THEN replace(replace(body ->> 'store', '%', '%25'), ':', '%3A') ELSE '' END)
                || ':' || (body ->> 'transaction_id') END AS occurrence
            FROM ${s}.events
            WHERE type IN ('INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE', 'BILLING_ISSUE')
          ) AS keyed WHERE occurrence IS NOT NULL ORDER BY occurrence, seq
        ) AS firsts
        WHERE e.seq = firsts.seq;`,
  },
  {
    version: 10,
    name: "events: one index less; a customer's events are read through the timeline's index",
    // A replay batch and a person's re-fold (customer_id = ANY(...) ORDER BY customer_id, seq) find
    // the rows through events_timeline, which starts with customer_id too, and sort each customer's
    // few rows by seq; every stored event writes one B-tree less (SQLite did the same in its version 10).
    sql: (s) => `
      DROP INDEX IF EXISTS ${s}.events_customer_seq;`,
  },
];

/** The advisory lock key of migrations (the bytes of "tenure"), the same for every schema. */
const MIGRATION_LOCK_KEY = 0x74656e757265;
/** How long a start waits for another replica's migration before giving up. */
const MIGRATION_LOCK_TIMEOUT = '30s';

/**
 * Creates `schema` if missing and applies the pending migrations, holding the advisory lock on
 * `client`'s session; resolves with the schema version. Throws a `PostgresStoreError` naming the
 * failed step, or when the database was migrated by a newer tenure.
 */
export async function migrate(client: pg.ClientBase, schema: string, migrations: readonly Migration[] = MIGRATIONS): Promise<number> {
  const s = quoteIdent(schema);
  await client.query(`SET lock_timeout = '${MIGRATION_LOCK_TIMEOUT}'`);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  } catch (error) {
    throw new PostgresStoreError(`another process has held tenure's migration lock for ${MIGRATION_LOCK_TIMEOUT}: ${messageOf(error)}`, { cause: error });
  }
  try {
    await client.query('RESET lock_timeout');
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const applied = await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations ORDER BY version`);
    const done = new Set(applied.rows.map((r) => r.version));
    const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
    const newest = applied.rows.reduce((max, r) => Math.max(max, r.version), 0);
    if (newest > latest) {
      throw new PostgresStoreError(`schema ${schema} is at version ${newest}, newer than this tenure knows (${latest}): upgrade tenure`);
    }
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      try {
        await client.query('BEGIN');
        await client.query(migration.sql(s));
        await client.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new PostgresStoreError(`PostgreSQL migration ${migration.version} (${migration.name}) of schema ${schema} failed: ${messageOf(error)}`, { cause: error });
      }
    }
    return latest;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
