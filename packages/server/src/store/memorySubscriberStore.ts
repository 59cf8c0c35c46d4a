/**
 * The in-memory implementation of the core's `SubscriberStore` port, for tests and embedding:
 * the event log (JSON texts, for records and replay), the applied ids and transaction occurrences (deduplication), one entry
 * per customer (subscriber, reported activity, materialized row) and the at-risk indexes, so a
 * first page costs a seek and `limit` steps instead of scoring every subscriber. Durable stores
 * implement the same port in their own packages, against the same contract suite.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  AtRiskEntry,
  AtRiskPage,
  AtRiskQuery,
  ApplyOutcome,
  ConfigCheck,
  EventPage,
  TimelineQuery,
  HandledEvent,
  HeldElsewhereListener,
  ImportSession,
  MovedSubscription,
  OccurrenceHolder,
  PositionOf,
  ProgressListener,
  StoreContext,
  StoredRecord,
  Subscriber,
  SubscriberStore,
  TransferEvent,
  TransferOutcome,
} from '@tenure/core';
import { createMemoryDispatchLog } from '../dispatch/dispatchLog.js';
import { CustomerTable, type CustomerEntry } from './internal/customerTable.js';
import { createMemoryCheckpoints } from './internal/memoryCheckpoints.js';
import { createMemorySnapshots } from './internal/memorySnapshots.js';

/** The in-memory store. */
export interface MemorySubscriberStore extends SubscriberStore {
  readonly kind: 'memory';
}

/** Options of the memory store. */
export interface MemoryStoreOptions {
  /** Customers rebuilt per turn of the event loop during a replay (default 1 000). */
  replayBatchSize?: number;
}

/**
 * Returns an empty in-memory store that applies each event id at most once and answers at-risk
 * from an index. Every operation runs synchronously underneath, so each is atomic in one process;
 * a replay yields to the event loop between batches of customers and loses no concurrent write.
 *
 * @example
 * const store = createMemorySubscriberStore();
 * await store.applyEvent(event, { now: Date.now(), config: DEFAULT_CONFIG }); // { status: 'applied', subscriber }
 * await store.atRisk({ limit: 50 }, { now: Date.now(), config: DEFAULT_CONFIG }); // { items, next }
 */
export function createMemorySubscriberStore(options: MemoryStoreOptions = {}): MemorySubscriberStore {
  const replayBatchSize = Math.max(1, options.replayBatchSize ?? 1000);
  const table = new CustomerTable();
  const { entries, log } = table;
  /** Persons an import session touched whose rows wait for its `finish` (kept by the store, so a later session assesses them too). */
  const unassessed = new Set<CustomerEntry>();

  /** A batch's duplicate: with a listener, its holder (when another person's) is kept for after the batch. */
  const duplicateOf = (event: HandledEvent, i: number, held: [number, OccurrenceHolder][], listener: HeldElsewhereListener | undefined): 'duplicate' => {
    const holder = listener === undefined ? undefined : table.holderOf(event);
    if (holder !== undefined) held.push([i, holder]);
    return 'duplicate';
  };

  const store: MemorySubscriberStore = {
    kind: 'memory',
    dispatchLog: createMemoryDispatchLog(),
    checkpoints: createMemoryCheckpoints(),
    snapshots: createMemorySnapshots(),

    async applyEvent(delivered: HandledEvent, ctx: StoreContext): Promise<ApplyOutcome> {
      table.useConfig(ctx);
      const event = table.moved.route(delivered); // an event of a transferred subscription goes to its receiver
      if (table.has(event)) {
        const heldBy = table.holderOf(event);
        const subscriber = table.entryOf(event.app_user_id)?.subscriber;
        return heldBy === undefined ? { status: 'duplicate', subscriber } : { status: 'duplicate', subscriber, heldBy };
      }
      return { status: 'applied', subscriber: table.apply(event, ctx).subscriber };
    },

    async applyEvents(events: readonly HandledEvent[], ctx: StoreContext, onHeldElsewhere?: HeldElsewhereListener): Promise<ApplyOutcome['status'][]> {
      table.useConfig(ctx);
      const held: [number, OccurrenceHolder][] = [];
      const statuses = events.map((delivered, i) => {
        const event = table.moved.route(delivered);
        if (table.has(event)) return duplicateOf(event, i, held, onHeldElsewhere);
        table.apply(event, ctx);
        return 'applied' as const;
      });
      for (const [i, holder] of held) onHeldElsewhere!(i, holder);
      return statuses;
    },

    async beginImport(ctx: StoreContext): Promise<ImportSession> {
      table.useConfig(ctx);
      return {
        // Each event is folded into its person at once (cheap in memory); the row, its scoring
        // and its place in the at-risk indexes, once per person at `finish`.
        async append(events, onHeldElsewhere) {
          const held: [number, OccurrenceHolder][] = [];
          const statuses = events.map((delivered, i) => {
            const event = table.moved.route(delivered);
            if (table.has(event)) return duplicateOf(event, i, held, onHeldElsewhere);
            unassessed.add(table.apply(event, ctx, false));
            return 'applied' as const;
          });
          for (const [i, holder] of held) onHeldElsewhere!(i, holder);
          return statuses;
        },
        async finish(done, onProgress) {
          table.useConfig(done);
          let assessed = 0;
          for (const entry of unassessed) {
            if (entries.get(entry.id) !== entry) continue; // merged into another person since
            table.materialize(entry, done);
            assessed += 1;
          }
          unassessed.clear();
          onProgress?.(assessed, assessed);
          return assessed;
        },
      };
    },

    async applyTransfer(event: TransferEvent, ctx: StoreContext): Promise<TransferOutcome> {
      table.useConfig(ctx);
      return table.transfer(event, ctx);
    },

    async get(customerId: string): Promise<Subscriber | undefined> {
      return table.entryOf(customerId)?.subscriber;
    },

    async recordActivity(customerId: string, at: number, ctx: StoreContext): Promise<Subscriber | undefined> {
      table.useConfig(ctx);
      return table.recordActivity(customerId, at, ctx);
    },

    async atRisk<Q extends AtRiskQuery>(query: Q, ctx: StoreContext): Promise<AtRiskPage<AtRiskEntry, PositionOf<Q>>> {
      table.useConfig(ctx);
      table.refresh(ctx, Number.POSITIVE_INFINITY);
      return table.page(query, ctx.config);
    },

    async refreshDue(ctx: StoreContext, limit: number): Promise<number> {
      table.useConfig(ctx);
      return table.refresh(ctx, limit);
    },

    async *list(): AsyncIterable<Subscriber> {
      for (const entry of table.inIdOrder()) yield entry.subscriber;
    },

    async count(): Promise<number> {
      return entries.size;
    },

    async eventCount(): Promise<number> {
      return log.size;
    },

    async *records(): AsyncIterable<StoredRecord> {
      for (const event of log.all()) yield { kind: 'event', event };
      for (const entry of entries.values()) if (entry.reported !== null) yield { kind: 'activity', customer_id: entry.id, at: entry.reported };
    },

    async *movedSubscriptions(): AsyncIterable<MovedSubscription> {
      yield* table.moved.all();
    },

    async restoreMovedSubscriptions(routes: readonly MovedSubscription[]): Promise<void> {
      for (const route of routes) table.moved.restore(route);
    },

    async eventsOf(customerId: string, query: TimelineQuery): Promise<EventPage> {
      return table.eventsOf(customerId, query);
    },

    async replay(ctx: StoreContext, onProgress?: ProgressListener): Promise<number> {
      // Map iteration is live: customers created during the replay are visited too. A batch runs
      // without yielding, so no write can slip between reading a customer's events and storing the fold.
      const customers = entries.values();
      let done = 0;
      for (;;) {
        table.useConfig(ctx);
        let rebuilt = 0;
        for (let step = customers.next(); !step.done; step = customers.next()) {
          table.rebuild(step.value, ctx);
          if (++rebuilt === replayBatchSize) break;
        }
        done += rebuilt;
        if (rebuilt > 0) onProgress?.(done, Math.max(done, entries.size));
        if (rebuilt < replayBatchSize) return done; // an exhausted Map iterator stays exhausted
        await nextTurn();
      }
    },

    async ensureConfig(ctx: StoreContext, onProgress?: ProgressListener): Promise<ConfigCheck> {
      const rescored = table.useConfig(ctx);
      if (rescored === null) return { changed: false };
      onProgress?.(rescored, rescored);
      return { changed: true, rescored };
    },

    async close(): Promise<void> {},
  };
  return store;
}
