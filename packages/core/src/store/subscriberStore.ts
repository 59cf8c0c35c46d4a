/**
 * The store port: what an adapter needs to keep subscribers durable and answer the at-risk query
 * from an index. Types only; implementations live in adapter packages (in memory in
 * @tenure/server, `@tenure/store-sqlite`, `@tenure/store-postgres`), each run against one contract
 * suite, so a store package depends on the core alone.
 */
import type { TenureConfig } from '../config/defaultConfig.js';
import type { HandledEvent, TransferEvent } from '../events/webhookSchema.js';
import type { AtRiskPage, AtRiskQuery, AtRiskRow, PositionOf } from '../atRisk/atRisk.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import type { DispatchLog } from './dispatchLog.js';
import type { EventPage, TimelineQuery } from './eventTimeline.js';
import type { DailySnapshot } from '../trends/dailySnapshot.js';
import type { UtcDay } from '../trends/utcDay.js';

/** What happened to one delivered event. */
export type ApplyOutcome =
  | { status: 'applied'; subscriber: Subscriber }
  /**
   * The event id, or its transaction occurrence, was seen before: nothing changed. `subscriber` is
   * the record the event's `app_user_id` names. `heldBy` is set when the stored occurrence belongs
   * to another person than the one the event names (`OccurrenceHolder`): still a duplicate (one
   * store's transaction is one occurrence), but one the caller should make visible.
   */
  | { status: 'duplicate'; subscriber: Subscriber | undefined; heldBy?: OccurrenceHolder };

/**
 * Who holds a stored transaction occurrence that a delivery repeated under another customer: the
 * occurrence key (`transactionOccurrenceOf`) and the customer id of the person whose stored event
 * carries it (its record's id, as `get` finds it).
 */
export interface OccurrenceHolder {
  key: string;
  customer: string;
}

/**
 * Told by a batch write (`applyEvents`, `ImportSession.append`), once the batch is stored, of each
 * event answered `duplicate` because another person holds its transaction occurrence: the event's
 * position in the batch and the holder (what `applyEvent` returns as `heldBy`). Without a listener
 * a store does not look for holders, so a batch costs what it did.
 *
 * @example
 * await store.applyEvents(events, ctx, (i, holder) => console.warn(events[i]!.id, 'held by', holder.customer));
 */
export type HeldElsewhereListener = (position: number, holder: OccurrenceHolder) => void;

/**
 * What a TRANSFER did: `applied` with the receiver (`transferOf(event).to[0]`, undefined when there
 * is none), its subscriber after the move (undefined when no history reached it) and how many
 * events moved; `duplicate` when a transfer with this id was applied before (nothing changed).
 */
export type TransferOutcome =
  | { status: 'applied'; receiver: string | undefined; moved: number; subscriber: Subscriber | undefined }
  | { status: 'duplicate' };

/**
 * The instant and the rules a store assesses with. Stores materialize each subscriber's at-risk
 * row at `now` under `config`; a call with another configuration than the rows were built with
 * re-materializes every row first. Query times are expected not to go backwards (wall time, the
 * event clock and the simulator's clock never do); a row materialized at a later instant than a
 * query's `now` answers as of its own instant.
 */
export interface StoreContext {
  now: number;
  config: TenureConfig;
}

/** One at-risk item: the stored row (exact at the query's `now`) and the subscriber it was built from. */
export interface AtRiskEntry extends AtRiskRow {
  subscriber: Subscriber;
}

/** What the store holds besides subscribers, as exported and imported: events and app-reported activity. */
export type StoredRecord =
  | { kind: 'event'; event: HandledEvent }
  | { kind: 'activity'; customer_id: string; at: number };

/**
 * One route a TRANSFER left (docs/rules.md §2, Later events of a moved subscription): the
 * subscription (`original_transaction_id`) moved to `receiver`, the receiving id of the latest
 * transfer that moved it. Kept apart from `StoredRecord`: it is no history (the backtest and
 * snapshots read records), only where later events go; exported after the records.
 */
export interface MovedSubscription {
  original_transaction_id: string;
  receiver: string;
}

/** Progress of a long operation (replay): how many done of how many (total may be an estimate). */
export type ProgressListener = (done: number, total: number) => void;

/**
 * What `ensureConfig` found: the rows were already built with the configuration (`changed: false`),
 * or they were built with another one and `rescored` rows were re-materialized.
 */
export type ConfigCheck = { changed: false } | { changed: true; rescored: number };

/**
 * Persistence of the webhook stream and its projections: events appended exactly once (unique by
 * `event.id`) together with the subscriber and its at-risk row, in one transaction. Async so any
 * backend fits.
 */
export interface SubscriberStore {
  /** Human-readable name for logs (e.g. "memory", "sqlite:./data/tenure.db", "postgres"). */
  readonly kind: string;
  /**
   * Appends `event` and applies it with `applyEvent` unless its `id` or its transaction occurrence
   * (`transactionOccurrenceOf`) is already stored, and re-materializes the subscriber's at-risk row
   * at `ctx.now`, atomically; resolves only after the change is durable. Concurrent events of one
   * customer never lose an update. A duplicate of an occurrence another person holds says so
   * (`heldBy`); finding the holder costs nothing on the path of a new event. The store may keep
   * `event` itself (the memory store does): never change an event after applying it. What a store
   * hands out (`eventsOf`, `records`) is always a copy.
   */
  applyEvent(event: HandledEvent, ctx: StoreContext): Promise<ApplyOutcome>;
  /**
   * Like `applyEvent` for many events in one transaction (import); one status per event, in order.
   * With `onHeldElsewhere`, each duplicate whose occurrence another person holds is told to it after
   * the commit, in order.
   */
  applyEvents(events: readonly HandledEvent[], ctx: StoreContext, onHeldElsewhere?: HeldElsewhereListener): Promise<ApplyOutcome['status'][]>;
  /**
   * Opens a bulk import (`ImportSession`): events are appended batch by batch and each person they
   * touch is folded once, when the session finishes, instead of once per batch. `ctx` is what a
   * store assesses with before then (a merge of two persons is folded at once).
   */
  beginImport(ctx: StoreContext): Promise<ImportSession>;
  /**
   * Applies a TRANSFER (docs/rules.md §2, `transferHistory`) atomically: unless its id was applied
   * before, moves every stored event of each sender (`transferOf(event).from`) to the receiver
   * `transferOf(event).to[0]` (each re-keyed to the receiving id, so replay and export reproduce the
   * move), folds the receiver again from the union with the senders' latest reported activity,
   * deletes the senders' records (a sender is never at risk) and re-materializes the receiver's
   * at-risk row at `ctx.now`. The transfer's id is kept for deduplication, and each moved event's
   * subscription (`movedSubscriptionOf`) is kept with the receiving id: every write path
   * (`applyEvent`, `applyEvents`, an import session) routes a later event of it to the receiver
   * first (`routeMovedSubscription`; the latest transfer of a subscription wins).
   */
  applyTransfer(event: TransferEvent, ctx: StoreContext): Promise<TransferOutcome>;
  /** The subscriber, or undefined for an unknown customer. */
  get(customerId: string): Promise<Subscriber | undefined>;
  /** Applies `recordActivity` (kept, so replay and export keep it); undefined for an unknown customer (nothing is created). */
  recordActivity(customerId: string, at: number, ctx: StoreContext): Promise<Subscriber | undefined>;
  /**
   * The page of at-risk subscribers at `ctx.now`, in score or revenue order (`query.sort`): first
   * re-materializes the rows whose `rescore_at` is at or before `ctx.now` (an index range), then
   * reads the page from the at-risk index and the total from per-(state, score) sums kept with the
   * rows. The answer equals `selectAtRisk` over every subscriber.
   */
  atRisk<Q extends AtRiskQuery>(query: Q, ctx: StoreContext): Promise<AtRiskPage<AtRiskEntry, PositionOf<Q>>>;
  /** Background sweep: re-materializes at most `limit` rows due at `ctx.now`; resolves with how many. */
  refreshDue(ctx: StoreContext, limit: number): Promise<number>;
  /** Every subscriber, in customer id order (code point order). */
  list(): AsyncIterable<Subscriber>;
  /** Number of subscribers. */
  count(): Promise<number>;
  /** Number of stored events. */
  eventCount(): Promise<number>;
  /** Every stored event (in the order stored), then every customer's latest reported activity; streamed. */
  records(): AsyncIterable<StoredRecord>;
  /**
   * Every subscription a transfer moved and its receiving id (the latest transfer's), in
   * `original_transaction_id` order (code point order); streamed. `tenure export` writes them after
   * the records, so an import restores them with `restoreMovedSubscriptions`.
   */
  movedSubscriptions(): AsyncIterable<MovedSubscription>;
  /**
   * Keeps each route as the transfer that made it would have (an import of an export): afterwards
   * every write path routes a later event of the subscription to `receiver`. In order, in one
   * transaction: a route replaces the one held for its subscription (a later route of the same
   * subscription, here or in a later call, wins); a route already held changes nothing. Events
   * already stored are left as they are (a route applies to events delivered after it), and no
   * record is created.
   */
  restoreMovedSubscriptions(routes: readonly MovedSubscription[]): Promise<void>;
  /**
   * One customer's stored events, newest first (event time descending, then id descending in code
   * point order: `compareTimeline`), at most `query.limit`, strictly after `query.before` when
   * given; `next` is the last item's position when more follow. Read from an index by (customer,
   * event time, id): the cost is the page, not the customer's whole history nor the store. An
   * unknown customer has an empty page.
   */
  eventsOf(customerId: string, query: TimelineQuery): Promise<EventPage>;
  /**
   * Rebuilds every subscriber and at-risk row from the stored events and activity (after a rules
   * or configuration change), customer by customer, while the store stays in use; resolves with the
   * number of subscribers rebuilt. Persons stored apart whose events link them (records stored
   * before identities were kept) are merged first, so the store then equals delivering every
   * stored event fresh (docs/storage.md, replay).
   */
  replay(ctx: StoreContext, onProgress?: ProgressListener): Promise<number>;
  /**
   * Brings the at-risk rows to `ctx.config` now, reporting progress: when they were built with
   * another configuration (the store keeps the `configFingerprint` of the one it used, durably with
   * the data), re-materializes every row at `ctx.now`, records the new fingerprint and resolves
   * with how many rows; when they were not, changes nothing. Every other call taking a context does
   * the same implicitly, silently; a service calls this first, before accepting traffic, to say so.
   */
  ensureConfig(ctx: StoreContext, onProgress?: ProgressListener): Promise<ConfigCheck>;
  /** Delivery attempts and cooldown marks, kept by the same backend. */
  readonly dispatchLog: DispatchLog;
  /** Named progress markers of long operations (backfill), kept durably with the data. */
  readonly checkpoints: CheckpointStore;
  /** The dashboard's daily trend records, one per UTC day, kept durably with the data. */
  readonly snapshots: SnapshotStore;
  /** Releases resources (connections, file handles). */
  close(): Promise<void>;
}

/**
 * A bulk import (`tenure import --format revenuecat-export`): what `applyEvents` stores, with the
 * folding left to the end. `append` stores each event exactly as `applyEvents` would (unique by
 * `event.id` and by transaction occurrence, the first of a batch winning; its ids join its
 * person's, so one person under several ids stays one record, docs/rules.md §2) and durably marks
 * the persons it touched, without reading or writing their records. `finish` folds every marked
 * person once from all its stored events and its latest reported activity, names it by its latest
 * event, and writes its record and at-risk row at `ctx.now`: the store then holds exactly what
 * `applyEvents` of the same events would have left (records, rows, identities, events).
 *
 * Until `finish`, the records and rows of the persons touched are as they were (new persons may
 * already be found, not yet assessed). The marks outlive the session: a session that never
 * finishes (the process died, the import was interrupted) leaves its persons marked, and the next
 * session's `finish` folds them too, so importing the same file again completes the import.
 *
 * @example
 * const session = await store.beginImport(ctx);
 * for (const batch of batches) await session.append(batch); // ['applied', 'duplicate', ...]
 * await session.finish(ctx); // number of persons folded
 */
export interface ImportSession {
  /**
   * Stores the events not stored before, with their marks, in one transaction (PostgreSQL: several
   * of at most 500 events, for its lock table); one status per event, in order. With
   * `onHeldElsewhere`, each duplicate whose occurrence another person holds is told to it after the
   * commit (of its transaction), in order.
   */
  append(events: readonly HandledEvent[], onHeldElsewhere?: HeldElsewhereListener): Promise<ApplyOutcome['status'][]>;
  /**
   * Folds and writes every marked person (this session's and any left by an earlier one) in
   * transactions of a few hundred, reporting progress after each; resolves with how many were folded.
   */
  finish(ctx: StoreContext, onProgress?: ProgressListener): Promise<number>;
}

/**
 * Named progress markers of long operations (`tenure backfill`'s position), kept by the store's
 * backend beside the data, so an operation cut short resumes from where it stopped. Values are
 * opaque text (the caller serializes). Async, like the rest of the port.
 *
 * @example
 * await store.checkpoints.set('backfill:proj1', JSON.stringify({ starting_after: 'cus_42' }));
 * await store.checkpoints.get('backfill:proj1'); // '{"starting_after":"cus_42"}'
 * await store.checkpoints.delete('backfill:proj1'); // done: the next run starts over
 */
export interface CheckpointStore {
  /** The value stored under `name`, or undefined. */
  get(name: string): Promise<string | undefined>;
  /** Stores `value` under `name` durably (replacing any earlier value); resolves after it is durable. */
  set(name: string, value: string): Promise<void>;
  /** Removes `name` (no-op when absent). */
  delete(name: string): Promise<void>;
}

/**
 * The dashboard's trends: at most one `DailySnapshot` per UTC day, kept by the store's backend. The
 * service's sweep `put`s the current day's figures every few minutes (the day's latest write wins,
 * so a past day holds its figures from shortly before its end); days before the first record may be
 * filled once from the stored events.
 *
 * @example
 * await store.snapshots.put(snapshot); // replaces any earlier record of snapshot.day
 * await store.snapshots.range('2026-11-01', '2026-11-30'); // oldest first
 */
export interface SnapshotStore {
  /** Stores `snapshot` as the record of its day, replacing any earlier one; resolves after it is durable. */
  put(snapshot: DailySnapshot): Promise<void>;
  /** The records of the days from `from` to `to` (inclusive, `YYYY-MM-DD`), oldest first; days without a record are absent. */
  range(from: UtcDay, to: UtcDay): Promise<DailySnapshot[]>;
}
