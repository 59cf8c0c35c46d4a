/**
 * The PostgreSQL store: the webhook event log, subscriber projections with their at-risk rows, the
 * dispatch log and cooldowns, on one database shared by any number of replicas. Concurrency is the
 * database's: unique event ids catch duplicates across replicas, per-customer advisory locks keep
 * concurrent events of one customer from losing an update, row locks order refreshes.
 */
import { type AtRiskEntry, type AtRiskPage, type AtRiskQuery, type ConfigCheck, type ProgressListener,
  type PositionOf, type HandledEvent, type HeldElsewhereListener, type MovedSubscription, type StoreContext, type Subscriber, type SubscriberStore, type TenureConfig, type TransferEvent, type TimelineQuery } from '@tenure/core';
import pg from 'pg';
import { PostgresStoreError } from './postgresStoreError.js';
import { ConfigGuard } from './internal/configGuard.js';
import { createCheckpoints } from './internal/createCheckpoints.js';
import { createSnapshots } from './internal/createSnapshots.js';
import { readTimeline } from './internal/readTimeline.js';
import { createDispatchLog } from './internal/createDispatchLog.js';
import { describeConnectError, parseConnectionString, redact } from './internal/describeConnectError.js';
import { migrate } from './internal/migrations.js';
import { readAtRisk } from './internal/readAtRisk.js';
import { anyDue, refreshAllRows, refreshDueRows, refreshSql } from './internal/refreshRows.js';
import { relinkPeople } from './internal/relinkPeople.js';
import { replaySubscribers } from './internal/replaySubscribers.js';
import { streamMovedSubscriptions, streamRecords, streamSubscribers } from './internal/streamRows.js';
import { restoreMoved } from './internal/pgMovedSubscriptions.js';
import { tablesOf } from './internal/tables.js';
import { transferCustomers } from './internal/transferCustomers.js';
import { withTransaction } from './internal/withTransaction.js';
import { writeActivity } from './internal/writeActivity.js';
import { WriteBatcher } from './internal/writeBatcher.js';
import { writeEvents, writeEventsSql, type EventWrite } from './internal/writeEvents.js';
import { createPgImport } from './internal/importSession.js';

/**
 * Where and how `openPostgresStore` connects.
 *
 * @example
 * const options: PostgresStoreOptions = { connectionString: 'postgres://tenure@db:5432/tenure', schema: 'tenure', poolSize: 10 };
 */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` (also `postgresql://`, and libpq's `?sslmode=` etc.). */
  connectionString: string;
  /** The schema holding tenure's tables; created if missing. Default `public`. */
  schema?: string | undefined;
  /** Connections of this process (at least 2). Default 10. */
  poolSize?: number | undefined;
  /** Shown in `pg_stat_activity`. Default `tenure`. */
  applicationName?: string | undefined;
  /** How long to try to connect before giving up, in ms. Default 5000. */
  connectTimeoutMs?: number | undefined;
}

/**
 * A `SubscriberStore` on PostgreSQL, safe to share between replicas: each call holds a pooled
 * connection only while it runs, and concurrent webhooks of one process are committed together.
 *
 * @example
 * const store: PostgresStore = await openPostgresStore({ connectionString, schema: 'tenure' });
 * store.schema; // 'tenure'
 */
export interface PostgresStore extends SubscriberStore {
  readonly kind: 'postgres';
  /** The schema the tables live in. */
  readonly schema: string;
}

/** Rows re-materialized per transaction by the refresh before an at-risk read. */
const REFRESH_PAGE = 1000;
/** Enough passes to catch rows that come due while refreshing; more means a clock far behind. */
const MAX_REFRESH_PASSES = 1000;

// bigint columns hold epoch milliseconds and sequence numbers, all safe integers: read them as
// numbers. Set on this store's connections only, not on the driver's global parsers.
const parseInt8 = (value: string): number => Number(value);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Given a connection string, connects, creates the schema and applies the pending migrations
 * (under an advisory lock, so replicas starting together are safe) and resolves with the store;
 * rejects with a one-line `PostgresStoreError` for a malformed URL, an unreachable server (within
 * the connect timeout), a refused login or a failed migration.
 *
 * @example
 * const store = await openPostgresStore({ connectionString: process.env.DATABASE_URL! });
 * await store.applyEvent(event, { now: Date.now(), config: DEFAULT_CONFIG });
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const target = parseConnectionString(options.connectionString);
  const schema = options.schema ?? 'public';
  const poolSize = options.poolSize ?? 10;
  if (!Number.isInteger(poolSize) || poolSize < 2) throw new PostgresStoreError(`poolSize must be an integer of at least 2, got ${poolSize}`);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const config: pg.ClientConfig = {
    connectionString: options.connectionString,
    application_name: options.applicationName ?? 'tenure',
    connectionTimeoutMillis: connectTimeoutMs,
    // TCP keepalive, so a connection to a server that vanished (failover, network cut) is noticed.
    keepAlive: true,
    types,
  };

  // Migrations run on a connection of their own, which holds the migration lock for its session.
  const migrator = new pg.Client(config);
  migrator.on('error', () => undefined); // a dropped connection surfaces as the failing query's error
  try {
    await migrator.connect();
  } catch (error) {
    throw describeConnectError(error, target, connectTimeoutMs);
  }
  try {
    await migrate(migrator, schema);
  } catch (error) {
    if (error instanceof PostgresStoreError) throw error;
    throw new PostgresStoreError(`cannot prepare schema ${schema} on PostgreSQL at ${target.address}: ${(error as Error).message}`, { cause: error });
  } finally {
    await migrator.end().catch(() => undefined);
  }

  const pool = new pg.Pool({ ...config, max: poolSize });
  // An idle connection that breaks (server restart) is dropped by the pool; the next query
  // reconnects or fails with its own error. Without a listener the event would crash the process.
  pool.on('error', () => undefined);
  try {
    return await createStore(pool, schema, poolSize);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new PostgresStoreError(`cannot open the store on ${redact(options.connectionString)}: ${(error as Error).message}`, { cause: error });
  }
}

async function createStore(pool: pg.Pool, schema: string, poolSize: number): Promise<PostgresStore> {
  const t = tablesOf(schema);
  const eventsSql = writeEventsSql(t);
  const refresh = refreshSql(t);
  const countSubscribers = async (): Promise<number> => {
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${t.subscribers}`);
    return rows[0]?.n ?? 0;
  };
  const configGuard = new ConfigGuard(pool, t, async (ctx, onProgress) =>
    refreshAllRows(pool, refresh, ctx.now, ctx.config, onProgress, onProgress === undefined ? 0 : await countSubscribers()),
  );
  await configGuard.load();

  const write = (writes: readonly EventWrite[], config: TenureConfig) => withTransaction(pool, (client) => writeEvents(client, eventsSql, writes, config));
  const batcher = new WriteBatcher<{ write: EventWrite; config: TenureConfig }, Awaited<ReturnType<typeof write>>[number]>({
    run: (items) => write(items.map((i) => i.write), items[0]!.config),
    key: (item) => item.config,
    maxBatch: 500,
    // One batch at a time: the next one gathers while this one commits, so batches grow with the
    // load and two batches of this process never wait on each other's customer locks (measured:
    // more in flight gave smaller batches and less throughput on two cores).
    maxInFlight: 1,
  });

  const beginImport = createPgImport(pool, t, eventsSql, async (ctx) => void (await configGuard.ensure(ctx)));

  const refreshDue = async (ctx: StoreContext, limit: number, skipLocked: boolean): Promise<number> => {
    await configGuard.ensure(ctx);
    return refreshDueRows(pool, refresh, ctx.now, ctx.config, limit, skipLocked);
  };

  let closed = false;
  return {
    kind: 'postgres',
    schema,
    dispatchLog: createDispatchLog(pool, t),
    checkpoints: createCheckpoints(pool, t),
    snapshots: createSnapshots(pool, t),

    async applyEvent(event: HandledEvent, ctx: StoreContext) {
      await configGuard.ensure(ctx);
      return batcher.submit({ write: { event, now: ctx.now }, config: ctx.config });
    },

    async applyEvents(events: readonly HandledEvent[], ctx: StoreContext, onHeldElsewhere?: HeldElsewhereListener) {
      if (events.length === 0) return [];
      await configGuard.ensure(ctx);
      const outcomes = await write(events.map((event) => ({ event, now: ctx.now })), ctx.config);
      // The batch's transaction sought the holders already (as for a webhook's): told after its commit.
      if (onHeldElsewhere !== undefined) outcomes.forEach((o, i) => o.status === 'duplicate' && o.heldBy !== undefined && onHeldElsewhere(i, o.heldBy));
      return outcomes.map((o) => o.status);
    },

    async beginImport(ctx: StoreContext) {
      await configGuard.ensure(ctx);
      await batcher.drained(); // webhooks this process accepted before the import commit before it
      return beginImport(ctx);
    },

    async applyTransfer(event: TransferEvent, ctx: StoreContext) {
      await configGuard.ensure(ctx);
      await batcher.drained(); // events this process accepted before the transfer commit before it
      return withTransaction(pool, (client) => transferCustomers(client, t, event, ctx));
    },

    async get(customerId: string) {
      // Any id of the person finds its record (docs/rules.md §2, aliases).
      const { rows } = await pool.query<{ record: Subscriber }>(
        `SELECT s.record FROM ${t.identities} AS i JOIN ${t.subscribers} AS s ON s.customer_id = i.customer_id WHERE i.id = $1`,
        [customerId],
      );
      return rows[0]?.record;
    },

    async recordActivity(customerId: string, at: number, ctx: StoreContext) {
      await configGuard.ensure(ctx);
      return withTransaction(pool, (client) => writeActivity(client, t, customerId, at, ctx));
    },

    async atRisk<Q extends AtRiskQuery>(query: Q, ctx: StoreContext): Promise<AtRiskPage<AtRiskEntry, PositionOf<Q>>> {
      await configGuard.ensure(ctx);
      // Usually nothing is due (the sweep keeps up): one index probe instead of a transaction.
      if (await anyDue(pool, refresh, ctx.now)) {
        for (let pass = 0; pass < MAX_REFRESH_PASSES; pass += 1) {
          if ((await refreshDue(ctx, REFRESH_PAGE, false)) < REFRESH_PAGE) break;
        }
      }
      return readAtRisk(pool, t, query, ctx.config);
    },

    refreshDue: (ctx: StoreContext, limit: number) => refreshDue(ctx, limit, true),

    list: () => streamSubscribers(pool, t),

    count: countSubscribers,

    async eventCount() {
      const { rows } = await pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${t.events}`);
      return rows[0]?.n ?? 0;
    },

    records: () => streamRecords(pool, t),

    movedSubscriptions: () => streamMovedSubscriptions(pool, t),

    async restoreMovedSubscriptions(routes: readonly MovedSubscription[]) {
      await batcher.drained(); // events this process accepted before the routes commit before them, where they were delivered
      await withTransaction(pool, (client) => restoreMoved(client, t, routes));
    },

    eventsOf: (customerId: string, query: TimelineQuery) => readTimeline(pool, t, customerId, query),

    async replay(ctx: StoreContext, onProgress?: (done: number, total: number) => void) {
      // Persons stored apart that one of their events links are merged first (records stored
      // before schema version 4); then every record is rebuilt from its own events.
      await relinkPeople(pool, t, ctx.now, ctx.config);
      const rebuilt = await replaySubscribers(pool, t, ctx.now, ctx.config, onProgress);
      // Every row is now built with ctx.config: no second pass for it.
      await configGuard.mark(ctx.config);
      return rebuilt;
    },

    async ensureConfig(ctx: StoreContext, onProgress?: ProgressListener): Promise<ConfigCheck> {
      const rescored = await configGuard.ensure(ctx, onProgress);
      return rescored === null ? { changed: false } : { changed: true, rescored };
    },

    async close() {
      if (closed) return;
      closed = true;
      await batcher.drained();
      await pool.end();
    },
  };
}
