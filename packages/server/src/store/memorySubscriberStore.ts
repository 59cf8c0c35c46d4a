/**
 * The in-memory implementation of the core's `SubscriberStore` port, for tests and embedding:
 * the event log (JSON texts, for records and replay), the applied ids (deduplication), one entry
 * per customer (subscriber, reported activity, materialized row keys) and the at-risk indexes, so a
 * first page costs a seek and `limit` steps instead of scoring every subscriber. Durable stores
 * implement the same port in their own packages, against the same contract suite.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  applyEvent,
  atRiskMinScore,
  bandFor,
  configFingerprint,
  materializeAtRisk,
  recordActivity,
  type AtRiskEntry,
  type AtRiskPage,
  type AtRiskQuery,
  type ApplyOutcome,
  type HandledEvent,
  type ProgressListener,
  type Recommendation,
  type StoreContext,
  type StoredRecord,
  type Subscriber,
  type SubscriberStore,
  type TenureConfig,
} from '@tenure/core';
import { createMemoryDispatchLog } from '../dispatch/dispatchLog.js';
import { AtRiskIndex, type IndexedRow } from './internal/atRiskIndex.js';
import { bandRange } from './internal/bandRange.js';
import { codePointKey, compareKeys } from './internal/codePointKey.js';
import { EventLog, NO_EVENT } from './internal/eventLog.js';

/** The in-memory store. */
export interface MemorySubscriberStore extends SubscriberStore {
  readonly kind: 'memory';
}

/** Options of the memory store. */
export interface MemoryStoreOptions {
  /** Customers rebuilt per turn of the event loop during a replay (default 1 000). */
  replayBatchSize?: number;
}

/** One customer: the subscriber, its latest reported activity, its latest event and its materialized row. */
interface Entry extends IndexedRow {
  subscriber: Subscriber;
  /** The priority-1 recommendation at `assessedAt` (kept, so reading a page allocates almost nothing). */
  top: Recommendation | null;
  assessedAt: number;
  reported: number | null;
  lastSeq: number;
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
  const entries = new Map<string, Entry>();
  const ids = new Set<string>();
  const log = new EventLog<HandledEvent>();
  const index = new AtRiskIndex<Entry>();
  let sorted: Entry[] | null = null; // list() order, rebuilt after a new customer
  let fingerprint: string | null = null;
  let lastConfig: TenureConfig | null = null;

  /** Materializes `entry` at `now` and moves it in the indexes. */
  const materialize = (entry: Entry, now: number, config: TenureConfig): void => {
    const { row } = materializeAtRisk(entry.subscriber, now, config);
    entry.top = row.top;
    entry.assessedAt = now;
    index.update(entry, { state: row.state, score: row.score, rescoreAt: row.rescore_at });
  };

  /** Re-materializes every row when the configuration differs from the one the rows were built with. */
  const useConfig = ({ now, config }: StoreContext): void => {
    if (config === lastConfig) return;
    lastConfig = config;
    const next = configFingerprint(config);
    if (next === fingerprint) return;
    fingerprint = next;
    for (const entry of entries.values()) {
      const { row } = materializeAtRisk(entry.subscriber, now, config);
      entry.state = row.state;
      entry.score = row.score;
      entry.rescoreAt = row.rescore_at;
      entry.top = row.top;
      entry.assessedAt = now;
    }
    index.rebuild([...entries.values()]);
  };

  const refresh = (ctx: StoreContext, limit: number): number => {
    const due = index.takeDue(ctx.now, limit);
    for (const entry of due) materialize(entry, ctx.now, ctx.config);
    return due.length;
  };

  /** Appends a new event and applies it (the caller checked the id). */
  const apply = (event: HandledEvent, ctx: StoreContext): Subscriber => {
    ids.add(event.id);
    const existing = entries.get(event.app_user_id);
    const subscriber = applyEvent(existing?.subscriber, event);
    if (existing !== undefined) {
      existing.lastSeq = log.append(event, existing.lastSeq);
      existing.subscriber = subscriber;
      materialize(existing, ctx.now, ctx.config);
      return subscriber;
    }
    const { row } = materializeAtRisk(subscriber, ctx.now, ctx.config);
    const entry: Entry = {
      id: subscriber.customer_id,
      key: codePointKey(subscriber.customer_id),
      subscriber,
      state: row.state,
      score: row.score,
      rescoreAt: row.rescore_at,
      top: row.top,
      assessedAt: ctx.now,
      reported: null,
      lastSeq: log.append(event, NO_EVENT),
    };
    entries.set(entry.id, entry);
    index.add(entry);
    sorted = null;
    return subscriber;
  };

  /** Folds a customer's stored events and reported activity again, and re-materializes the row. */
  const rebuild = (entry: Entry, ctx: StoreContext): void => {
    let subscriber: Subscriber | undefined;
    for (const event of log.chain(entry.lastSeq)) subscriber = applyEvent(subscriber, event);
    if (subscriber === undefined) return; // every entry has at least one event
    entry.subscriber = entry.reported === null ? subscriber : recordActivity(subscriber, entry.reported);
    materialize(entry, ctx.now, ctx.config);
  };

  /** The entry as the port returns it: its materialized row and subscriber. */
  const toAtRiskEntry = (entry: Entry, config: TenureConfig): AtRiskEntry => ({
    customer_id: entry.id,
    state: entry.state,
    score: entry.score,
    band: bandFor(entry.score, config.bands),
    top: entry.top,
    assessed_at: entry.assessedAt,
    rescore_at: entry.rescoreAt,
    subscriber: entry.subscriber,
  });

  const store: MemorySubscriberStore = {
    kind: 'memory',
    dispatchLog: createMemoryDispatchLog(),

    async applyEvent(event: HandledEvent, ctx: StoreContext): Promise<ApplyOutcome> {
      useConfig(ctx);
      if (ids.has(event.id)) return { status: 'duplicate', subscriber: entries.get(event.app_user_id)?.subscriber };
      return { status: 'applied', subscriber: apply(event, ctx) };
    },

    async applyEvents(events: readonly HandledEvent[], ctx: StoreContext): Promise<ApplyOutcome['status'][]> {
      useConfig(ctx);
      return events.map((event) => {
        if (ids.has(event.id)) return 'duplicate';
        apply(event, ctx);
        return 'applied';
      });
    },

    async get(customerId: string): Promise<Subscriber | undefined> {
      return entries.get(customerId)?.subscriber;
    },

    async recordActivity(customerId: string, at: number, ctx: StoreContext): Promise<Subscriber | undefined> {
      useConfig(ctx);
      const entry = entries.get(customerId);
      if (entry === undefined) return undefined;
      entry.reported = entry.reported === null ? at : Math.max(entry.reported, at);
      const next = recordActivity(entry.subscriber, at);
      if (next !== entry.subscriber) {
        entry.subscriber = next;
        materialize(entry, ctx.now, ctx.config);
      }
      return next;
    },

    async atRisk(query: AtRiskQuery, ctx: StoreContext): Promise<AtRiskPage<AtRiskEntry>> {
      useConfig(ctx);
      refresh(ctx, Number.POSITIVE_INFINITY);
      const { minScore, maxScore } = bandRange(query.band, atRiskMinScore(query, ctx.config), ctx.config.bands);
      const { rows, more } = index.page({ minScore, maxScore, state: query.state, after: query.after }, query.limit);
      const last = rows[rows.length - 1];
      return {
        items: rows.map((r) => toAtRiskEntry(r, ctx.config)),
        next: more && last !== undefined ? { score: last.score, customer_id: last.id } : null,
      };
    },

    async refreshDue(ctx: StoreContext, limit: number): Promise<number> {
      useConfig(ctx);
      return refresh(ctx, limit);
    },

    async *list(): AsyncIterable<Subscriber> {
      sorted ??= [...entries.values()].sort((a, b) => compareKeys(a.key, b.key));
      for (const entry of sorted) yield entry.subscriber;
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

    async replay(ctx: StoreContext, onProgress?: ProgressListener): Promise<number> {
      // Map iteration is live: customers created during the replay are visited too. A batch runs
      // without yielding, so no write can slip between reading a customer's events and storing the fold.
      const customers = entries.values();
      let done = 0;
      for (;;) {
        useConfig(ctx);
        let rebuilt = 0;
        for (let step = customers.next(); !step.done; step = customers.next()) {
          rebuild(step.value, ctx);
          if (++rebuilt === replayBatchSize) break;
        }
        done += rebuilt;
        if (rebuilt > 0) onProgress?.(done, Math.max(done, entries.size));
        if (rebuilt < replayBatchSize) return done; // an exhausted Map iterator stays exhausted
        await nextTurn();
      }
    },

    async close(): Promise<void> {},
  };
  return store;
}
