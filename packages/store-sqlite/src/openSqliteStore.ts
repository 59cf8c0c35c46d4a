/**
 * The SQLite implementation of the core's `SubscriberStore` port: the event log, the subscriber
 * projections with their materialized at-risk rows, the dispatch log and cooldowns, in one file.
 *
 * better-sqlite3 is synchronous, so each operation below runs to its end without another one of
 * this process interleaving; writes use `BEGIN IMMEDIATE` so that across processes sharing the file
 * the write lock is taken before anything is read (the busy timeout then queues them), and a
 * read-then-write can never act on a stale snapshot. Webhook deliveries arriving in one turn of the
 * event loop share one transaction (createGroupCommit.ts); at-risk reads take no write lock at all
 * (atRiskPage.ts assesses due rows in memory and they are written back after the answer).
 */
import {
  applyEvent,
  compareIds,
  configFingerprint,
  foldEvents,
  identityIdsOf,
  materializeAtRisk,
  recordActivity,
  type ApplyOutcome,
  type AtRiskEntry,
  type AtRiskPage,
  type AtRiskQuery,
  type HandledEvent,
  type PositionOf,
  type ProgressListener,
  type StoreContext,
  type MovedSubscription,
  type OccurrenceHolder,
  type StoredRecord,
  type Subscriber,
  type SubscriberStore,
  type TenureConfig,
  transactionOccurrenceOf,
} from '@tenure/core';
import { createAtRiskReader } from './internal/atRiskPage.js';
import { createGroupCommit } from './internal/createGroupCommit.js';
import { DEFAULT_BUSY_TIMEOUT_MS, isMemory, openDatabase } from './internal/openDatabase.js';
import { rowParams } from './internal/rowMapping.js';
import { createSqliteCheckpoints } from './internal/sqliteCheckpoints.js';
import { createSqliteDispatchLog } from './internal/sqliteDispatchLog.js';
import { pageCacheSizer } from './internal/pageCache.js';
import { startCheckpointer } from './internal/startCheckpointer.js';
import { createDeliveryMemo, MEMO_IDS, remember } from './internal/deliveryMemo.js';
import { prepareStatements, type StoredSubscriber } from './internal/statements.js';
import { createSubscriberUpdater } from './internal/subscriberUpdater.js';
import { createSqlitePeople } from './internal/sqlitePeople.js';
import { createSqliteTransfer } from './internal/sqliteTransfer.js';
import { createSqliteMovedSubscriptions } from './internal/sqliteMovedSubscriptions.js';
import { createSqliteRelink } from './internal/sqliteRelink.js';
import { createSqliteSnapshots } from './internal/sqliteSnapshots.js';
import { createSqliteTimeline } from './internal/sqliteTimeline.js';
import { createSqliteImport } from './internal/sqliteImport.js';

/** Where the store lives and how long to wait for another process's write lock. */
export interface SqliteStoreOptions {
  /** The database file (its directory is created if missing), or ':memory:' for a throwaway store. */
  path: string;
  /** Default 5000 ms. */
  busyTimeoutMs?: number | undefined;
}

/** A `SubscriberStore` in one SQLite file. */
export interface SqliteStore extends SubscriberStore {
  /** The file the store was opened on. */
  readonly path: string;
  /** Copies the whole database to `destination` while the store stays in use (SQLite's online backup). */
  backup(destination: string): Promise<void>;
}

/** Rows handled per transaction by the long passes (due rows, config change, replay, listing). */
const BATCH = 1000;
/** Customers replayed per transaction: short enough that live writes wait at most a few ms. */
const REPLAY_BATCH = 500;
/**
 * Up to this many due rows, a read assesses them in memory and writes them back after answering;
 * beyond it (no sweep ran for a while), it writes them back first.
 */
const INLINE_DUE = 200;
/** Webhooks committed together at most (one turn of the event loop rarely brings more). */
const GROUP_COMMIT_MAX = 500;
const FINGERPRINT_KEY = 'config_fingerprint';
/** Set by the version 7 upgrade of a file that held events: the next replay looks for persons stored apart (docs/storage.md). */
const RELINK_PENDING = 'relink_pending';
/** Stored while every row is being re-materialized, so a pass cut short is redone on the next call. */
const REMATERIALIZING = 'rematerializing';

const fingerprints = new WeakMap<TenureConfig, string>();
/** `configFingerprint` once per config object: it serializes the whole config, too slow per event. */
const fingerprintOf = (config: TenureConfig): string => {
  let f = fingerprints.get(config);
  if (f === undefined) fingerprints.set(config, (f = configFingerprint(config)));
  return f;
};

/**
 * After each replay batch, replay pauses about as long as the batch held the write lock: another
 * process waiting on the lock sleeps in SQLite's busy handler and would otherwise rarely wake while
 * the lock is free, so a live `tenure serve` on the same file would starve (measured: 5–16 webhooks/s
 * instead of ~120). Replay then takes at most twice as long.
 */
const yieldTheLock = (heldMs: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(Math.max(heldMs, 2), 250)));

/**
 * Given a path, opens (creating and migrating if needed) a SQLite store there and resolves with it.
 * The file is in WAL mode with `synchronous=NORMAL`: a change is durable against the process being
 * killed once its promise resolves; an OS crash or power loss may lose the last commits, never
 * corrupt the file. WAL checkpoints run on a worker thread, not inside a request's commit. Several
 * processes may open one file (the busy timeout queues their writes); each remembers the config
 * fingerprint it read at open or wrote last, so processes sharing a file should share one config.
 * A file of a newer schema version, or a path that cannot be opened, rejects with a one-line Error.
 *
 * @example
 * const store = await openSqliteStore({ path: './data/tenure.db' });
 * await store.applyEvent(event, { now: Date.now(), config: DEFAULT_CONFIG }); // { status: 'applied', ... }
 * const page = await store.atRisk({ limit: 50 }, { now: Date.now(), config: DEFAULT_CONFIG });
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const { path } = options;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const db = openDatabase(path, busyTimeoutMs);
  const s = prepareStatements(db);
  const reader = createAtRiskReader(db, s);
  const dispatchLog = createSqliteDispatchLog(db);
  const timeline = createSqliteTimeline(db);
  let fingerprint = s.getMeta.get(FINGERPRINT_KEY)?.value ?? null;

  const update = createSubscriberUpdater(db);
  const parse = (stored: StoredSubscriber | undefined): Subscriber | undefined =>
    stored === undefined ? undefined : (JSON.parse(stored.record) as Subscriber);
  /** Writes the subscriber and its row at `ctx.now` over what was `before` (undefined: a new one). */
  const save = (subscriber: Subscriber, before: StoredSubscriber | undefined, { now, config }: StoreContext) => {
    const { row } = materializeAtRisk(subscriber, now, config);
    const record = JSON.stringify(subscriber);
    if (before === undefined) s.insertSubscriber.run(...rowParams(row), record, subscriber.customer_id);
    else update(before, row, { record });
  };
  const rematerialize = (stored: StoredSubscriber, { now, config }: StoreContext) => {
    update(stored, materializeAtRisk(JSON.parse(stored.record) as Subscriber, now, config).row, {});
  };
  const people = createSqlitePeople(db, s, save);
  const moved = createSqliteMovedSubscriptions(db);
  const transfer = createSqliteTransfer(db, s, people, moved);
  /** Stores the event under its person's key; false for a duplicate id or occurrence. */
  const insertEvent = (event: HandledEvent, key: string): boolean =>
    s.insertEvent.run(event.id, transactionOccurrenceOf(event) ?? null, key, event.type, event.event_timestamp_ms, JSON.stringify(event)).changes === 1;
  /**
   * Given an event whose insert found a duplicate, returns who holds its occurrence when that is a
   * person none of the event's ids names, else undefined (a redelivery of an id, or of one person's
   * transaction). One statement probing the unique `occurrence` and `id` indexes, on the duplicate
   * path only.
   */
  const holderOf = (event: HandledEvent): OccurrenceHolder | undefined => {
    const key = transactionOccurrenceOf(event);
    const held = key === undefined ? undefined : s.heldOccurrence.get(key, event.id);
    if (key === undefined || held === undefined) return undefined;
    const customer = people.keyOf(held.customer_id) ?? held.customer_id;
    return identityIdsOf(event).some((id) => people.keyOf(id) === customer) ? undefined : { key, customer };
  };
  /** The stored subscriber any of a person's ids names. */
  const storedOf = (id: string): StoredSubscriber | undefined => {
    const key = people.keyOf(id);
    return key === undefined ? undefined : s.getStored.get(key);
  };

  /**
   * Subscribers changed by a batch and not written yet, by key, with what was stored before and the
   * context of their latest event (its `now` materializes the row written at the end).
   */
  type Pending = Map<string, { subscriber: Subscriber; stored: StoredSubscriber | undefined; ctx: StoreContext }>;

  /**
   * How `applyGrouped` finds an event's route and its person's key, and tells what it learnt: from
   * the file (a batch, an import), or the deliveries' memo first.
   */
  interface Lookups {
    receiverOf(subscription: string): string | undefined;
    keyOf(id: string): string | undefined;
    added(key: string, ids: readonly string[]): void;
    /** Ids moved wholesale (`regroup`). */
    merged(): void;
  }
  const nothing = () => undefined;
  const fromFile: Lookups = { receiverOf: moved.receiverOf, keyOf: people.keyOf, added: nothing, merged: nothing };
  const memo = createDeliveryMemo(db);
  const fromMemo: Lookups = {
    receiverOf(subscription) {
      let receiver = memo.routes.get(subscription);
      if (receiver === undefined) remember(memo.routes, subscription, (receiver = moved.receiverOf(subscription) ?? null), MEMO_IDS);
      return receiver ?? undefined;
    },
    keyOf(id) {
      let key = memo.keys.get(id);
      if (key === undefined && (key = people.keyOf(id)) !== undefined) remember(memo.keys, id, key, MEMO_IDS);
      return key;
    },
    added(key, ids) {
      for (const id of ids) remember(memo.keys, id, key, MEMO_IDS);
    },
    merged: memo.forget,
  };
  /**
   * Stores one event and applies it to the person its ids name (docs/rules.md §2): with one record
   * (or none) and its name unchanged, in `pending`; an event naming several records, or moving a
   * person to another id, re-folds the union at once (`regroup`). An event of a transferred
   * subscription is stored re-keyed to its receiver (`moved`). A duplicate names the holder of its
   * occurrence (`holderOf`) unless `holder` is false (a batch answers statuses only).
   */
  const applyGrouped = (delivered: HandledEvent, ctx: StoreContext, pending: Pending, lookups: Lookups, holder = true): ApplyOutcome => {
    const event = moved.route(delivered, lookups.receiverOf);
    const { keys, unknown } = people.resolve(identityIdsOf(event), lookups.keyOf);
    const key = keys[0] ?? event.app_user_id;
    if (!insertEvent(event, key)) {
      const known = people.keyOf(event.app_user_id);
      const held = known === undefined ? undefined : pending.get(known);
      const subscriber = held !== undefined ? held.subscriber : parse(storedOf(event.app_user_id));
      const heldBy = holder ? holderOf(event) : undefined;
      return heldBy === undefined ? { status: 'duplicate', subscriber } : { status: 'duplicate', subscriber, heldBy };
    }
    people.add(key, unknown);
    lookups.added(key, unknown);
    if (keys.length <= 1) {
      const seen = pending.get(key);
      const row = seen === undefined && keys.length > 0 ? s.getStored.get(key) : undefined;
      const next = applyEvent(seen === undefined ? parse(row) : seen.subscriber, event);
      if (next.customer_id === key) {
        pending.set(key, { subscriber: next, stored: seen === undefined ? row : seen.stored, ctx });
        return { status: 'applied', subscriber: next };
      }
    }
    for (const k of keys) pending.delete(k); // re-folded from the stored events
    const subscriber = people.regroup(keys, people.reportedOf(keys), ctx);
    lookups.merged();
    return { status: 'applied', subscriber };
  };
  const writePending = (pending: Pending) => {
    for (const { subscriber, stored, ctx } of pending.values()) save(subscriber, stored, ctx);
  };

  type Delivery = { event: HandledEvent; ctx: StoreContext };
  /**
   * One group commit's webhooks: like a batch, each touched subscriber is read once and written once
   * (a burst of one customer's events costs one read and one write, not one of each per event); each
   * delivery still answers with its own outcome, the subscriber as its event left it.
   */
  const applyDeliveries = db.transaction((items: Delivery[]): ApplyOutcome[] => {
    memo.follow();
    const pending: Pending = new Map();
    const outcomes = items.map(({ event, ctx }) => applyGrouped(event, ctx, pending, fromMemo));
    writePending(pending);
    memo.keep();
    return outcomes;
  });
  const deliveries = createGroupCommit<Delivery, ApplyOutcome>(
    (items) => {
      ensureConfig(items[0]!.ctx); // every item of a batch has the same config
      return applyDeliveries.immediate(items);
    },
    ({ ctx }) => fingerprintOf(ctx.config),
    GROUP_COMMIT_MAX,
  );

  /** A batch's duplicates held by another person (position, holder), sought only when `held` is given. */
  type Held = [number, OccurrenceHolder][] | undefined;
  const applyMany = db.transaction((events: readonly HandledEvent[], ctx: StoreContext, held: Held): ApplyOutcome['status'][] => {
    // Each touched subscriber is read once and written once, however many of its events the batch holds.
    const pending: Pending = new Map();
    const statuses = events.map((event, i) => {
      const outcome = applyGrouped(event, ctx, pending, fromFile, held !== undefined);
      if (outcome.status === 'duplicate' && outcome.heldBy !== undefined) held!.push([i, outcome.heldBy]);
      return outcome.status;
    });
    writePending(pending);
    return statuses;
  });

  const activity = db.transaction((customerId: string, at: number, ctx: StoreContext): Subscriber | undefined => {
    const stored = storedOf(customerId);
    if (stored === undefined) return undefined;
    const current = JSON.parse(stored.record) as Subscriber;
    const next = recordActivity(current, at);
    const { row } = materializeAtRisk(next, ctx.now, ctx.config);
    update(stored, row, {
      record: next === current ? undefined : JSON.stringify(next),
      reported_activity_at: stored.reported_activity_at === null || stored.reported_activity_at < at ? at : undefined,
    });
    return next;
  });

  const beginImport = createSqliteImport(db, { people, moved, insertEvent, holderOf, ensureConfig: (ctx) => ensureConfig(ctx), released: () => deliveries.released() });

  const refreshBatch = db.transaction((ctx: StoreContext, limit: number): number => {
    const due = s.due.all(ctx.now, limit);
    for (const stored of due) rematerialize(stored, ctx);
    return due.length;
  });

  /** Re-materializes the batch of rows after `after`; returns the last id (null at the end) and how many. */
  const rematerializeBatch = db.transaction((after: string | null, ctx: StoreContext): { last: string | null; count: number } => {
    const rows = after === null ? s.subscribersFirst.all(BATCH) : s.subscribersAfter.all(after, BATCH);
    for (const stored of rows) rematerialize(stored, ctx);
    return { last: rows.length < BATCH ? null : rows[rows.length - 1]!.customer_id, count: rows.length };
  });

  /**
   * Re-materializes every row when `ctx.config` is not the one the rows were built with; returns
   * how many (null when they were built with it), telling `onProgress` after each batch.
   */
  const ensureConfig = (ctx: StoreContext, onProgress?: ProgressListener): number | null => {
    const wanted = fingerprintOf(ctx.config);
    if (wanted === fingerprint) return null;
    s.setMeta.run(FINGERPRINT_KEY, REMATERIALIZING);
    fingerprint = REMATERIALIZING;
    const total = onProgress === undefined ? 0 : s.countSubscribers.get()!.n;
    let cursor: string | null = null;
    let done = 0;
    do {
      const batch: { last: string | null; count: number } = rematerializeBatch.immediate(cursor, ctx);
      done += batch.count;
      cursor = batch.last;
      onProgress?.(done, Math.max(total, done));
    } while (cursor !== null);
    s.setMeta.run(FINGERPRINT_KEY, wanted);
    fingerprint = wanted;
    return done;
  };

  const relink = createSqliteRelink(db, people);
  const relinkBatch = db.transaction((eventIds: readonly string[], ctx: StoreContext) => relink.relink(eventIds, ctx));

  /** Rebuilds the next batch of customers after `after` from their events; returns the last id and how many. */
  const replayBatch = db.transaction((after: string | null, ctx: StoreContext): { last: string | null; rebuilt: number } => {
    const rows = after === null ? s.subscribersFirst.all(REPLAY_BATCH) : s.subscribersAfter.all(after, REPLAY_BATCH);
    if (rows.length === 0) return { last: null, rebuilt: 0 };
    const events = s.eventsOfRange.all(rows[0]!.customer_id, rows[rows.length - 1]!.customer_id);
    let i = 0;
    let rebuilt = 0;
    for (const row of rows) {
      // Both lists are in BINARY (code point) order: a merge join.
      while (i < events.length && compareIds(events[i]!.customer_id, row.customer_id) < 0) i++;
      const mine: HandledEvent[] = [];
      for (; i < events.length && events[i]!.customer_id === row.customer_id; i++) mine.push(JSON.parse(events[i]!.body) as HandledEvent);
      let subscriber = foldEvents(mine);
      if (subscriber === undefined) continue;
      if (row.reported_activity_at !== null) subscriber = recordActivity(subscriber, row.reported_activity_at);
      save(subscriber, row, ctx);
      rebuilt++;
    }
    return { last: rows[rows.length - 1]!.customer_id, rebuilt };
  });

  /**
   * Writes back the rows a read assessed in memory, after the read has answered: the read never
   * waits for the write lock (another process may hold it, e.g. a replay), and one write serves the
   * reads that came meanwhile. A failure (busy, closed) is left to the next read or sweep.
   */
  let writeBack: StoreContext | null = null;
  const writeBackLater = (ctx: StoreContext) => {
    const scheduled = writeBack !== null;
    writeBack = ctx;
    if (scheduled) return;
    setImmediate(() => {
      const latest = writeBack!;
      writeBack = null;
      if (closed || fingerprintOf(latest.config) !== fingerprint) return;
      try {
        if (refreshBatch.immediate(latest, BATCH) === BATCH) writeBackLater(latest);
      } catch {
        // The rows stay due; they are assessed again by the next read and written by the next sweep.
      }
    });
  };
  let closed = false;
  // The page cache follows the file's size (pageCache.ts: SQLite walks the whole cache after most
  // commits to a file under 1 GiB): set now, and again at each of the checkpointer's releases, which
  // come after each time the WAL starts over (often enough under writes, never inside a transaction).
  const sizePageCache = pageCacheSizer(db);
  sizePageCache();
  const commitHold = {
    hold: () => deliveries.hold(),
    release: () => {
      deliveries.release();
      sizePageCache();
    },
  };
  const stopCheckpointer = isMemory(path) ? async () => undefined : startCheckpointer(db, path, busyTimeoutMs, commitHold);
  return {
    kind: `sqlite:${path}`,
    path,
    dispatchLog,
    checkpoints: createSqliteCheckpoints(db),
    snapshots: createSqliteSnapshots(db),
    applyEvent(event, ctx) {
      if (closed) return Promise.reject(new Error(`The SQLite store at ${path} is closed`));
      return deliveries.submit({ event, ctx });
    },
    async applyEvents(events, ctx, onHeldElsewhere) {
      ensureConfig(ctx);
      if (events.length === 0) return [];
      await deliveries.released(); // the WAL checkpointer's last pass: see startCheckpointer
      const held: Held = onHeldElsewhere === undefined ? undefined : [];
      const statuses = applyMany.immediate(events, ctx, held);
      for (const [i, holder] of held ?? []) onHeldElsewhere!(i, holder); // after the commit
      return statuses;
    },
    async beginImport(ctx) {
      if (closed) throw new Error(`The SQLite store at ${path} is closed`);
      ensureConfig(ctx);
      deliveries.flush(); // webhooks accepted before the import are committed before it
      return beginImport(ctx);
    },
    async applyTransfer(event, ctx) {
      ensureConfig(ctx);
      deliveries.flush(); // events accepted before the transfer are committed before it
      return transfer(event, ctx);
    },
    async get(customerId) {
      return parse(storedOf(customerId));
    },
    async recordActivity(customerId, at, ctx) {
      ensureConfig(ctx);
      return activity.immediate(customerId, at, ctx);
    },
    async atRisk<Q extends AtRiskQuery>(query: Q, ctx: StoreContext): Promise<AtRiskPage<AtRiskEntry, PositionOf<Q>>> {
      ensureConfig(ctx);
      if (s.countDue.get(ctx.now, INLINE_DUE + 1)!.n > INLINE_DUE) while (refreshBatch.immediate(ctx, BATCH) === BATCH);
      const { page, due } = reader.read(query, ctx);
      if (due > 0) writeBackLater(ctx);
      return page;
    },
    async refreshDue(ctx, limit) {
      ensureConfig(ctx);
      return limit >= 1 ? refreshBatch.immediate(ctx, Math.min(Math.floor(limit), Number.MAX_SAFE_INTEGER)) : 0;
    },
    async *list(): AsyncIterable<Subscriber> {
      // Keyset batches, not one open cursor: a cursor held across `yield` would keep the connection
      // busy and fail every write made while the caller is iterating.
      let rows = s.subscribersFirst.all(BATCH);
      while (rows.length > 0) {
        for (const row of rows) yield JSON.parse(row.record) as Subscriber;
        if (rows.length < BATCH) return;
        rows = s.subscribersAfter.all(rows[rows.length - 1]!.customer_id, BATCH);
      }
    },
    async count() {
      return s.countSubscribers.get()!.n;
    },
    async eventCount() {
      return s.countEvents.get()!.n;
    },
    async *records(): AsyncIterable<StoredRecord> {
      let seq = 0;
      for (;;) {
        const rows = s.eventsAfter.all(seq, BATCH);
        for (const row of rows) yield { kind: 'event', event: JSON.parse(row.body) as HandledEvent };
        if (rows.length < BATCH) break;
        seq = rows[rows.length - 1]!.seq;
      }
      let id = '';
      for (;;) {
        const rows = s.activityAfter.all(id, BATCH);
        for (const row of rows) yield { kind: 'activity', customer_id: row.customer_id, at: row.reported_activity_at };
        if (rows.length < BATCH) break;
        id = rows[rows.length - 1]!.customer_id;
      }
    },
    async *movedSubscriptions(): AsyncIterable<MovedSubscription> {
      let after = '';
      for (;;) {
        const rows = moved.page(after, BATCH);
        yield* rows;
        if (rows.length < BATCH) break;
        after = rows[rows.length - 1]!.original_transaction_id;
      }
    },
    async restoreMovedSubscriptions(routes) {
      deliveries.flush(); // events accepted before the routes are committed before them, so they stay where they were delivered
      moved.restore(routes);
    },
    async eventsOf(customerId, query) {
      return timeline(customerId, query);
    },
    async replay(ctx: StoreContext, onProgress?: ProgressListener) {
      ensureConfig(ctx);
      // First, in a file that held events before schema version 7 (so maybe records from before
      // version 4), persons stored apart that one of their events links are merged, a few hundred
      // such events per transaction, once; then every record is rebuilt from its own events.
      if (s.getMeta.get(RELINK_PENDING) !== undefined) {
        const linking = await relink.scan();
        for (let from = 0; from < linking.length; from += REPLAY_BATCH) {
          const started = performance.now();
          relinkBatch.immediate(linking.slice(from, from + REPLAY_BATCH), ctx);
          await yieldTheLock(performance.now() - started);
        }
        s.deleteMeta.run(RELINK_PENDING);
      }
      const total = s.countSubscribers.get()!.n;
      let done = 0;
      let cursor: string | null = null;
      for (;;) {
        const started = performance.now();
        const { last, rebuilt }: { last: string | null; rebuilt: number } = replayBatch.immediate(cursor, ctx);
        if (last === null) break;
        done += rebuilt;
        onProgress?.(done, Math.max(total, done));
        cursor = last;
        await yieldTheLock(performance.now() - started); // let live writers in between batches
      }
      return done;
    },
    async ensureConfig(ctx, onProgress) {
      const rescored = ensureConfig(ctx, onProgress);
      return rescored === null ? { changed: false } : { changed: true, rescored };
    },
    async backup(destination) {
      await db.backup(destination);
    },
    async close() {
      if (closed) return;
      deliveries.flush(); // what was accepted before close is committed
      closed = true;
      await stopCheckpointer(); // first, so that closing the last connection folds the WAL into the file
      db.close();
    },
  };
}
