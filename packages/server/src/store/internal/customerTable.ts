/**
 * The memory store's state, all synchronous: the event log, the applied ids and transaction occurrences, one entry per
 * customer (subscriber, reported activity, latest event, materialized row) and the at-risk
 * indexes over the entries. The store wraps it in the async port; keeping every operation
 * synchronous here is what makes each one atomic.
 */
import {
  applyEvent,
  atRiskMinScore,
  bandFor,
  configFingerprint,
  foldEvents,
  materializeAtRisk,
  positionIn,
  recordActivity,
  type AtRiskEntry,
  type AtRiskPage,
  type AtRiskQuery,
  type EventPage,
  timelinePage,
  type TimelineQuery,
  type HandledEvent,
  type PositionOf,
  type Recommendation,
  type StoreContext,
  type Subscriber,
  type TenureConfig,
  transactionOccurrenceOf,
  transferOf,
  type TransferEvent,
  type TransferOutcome,
} from '@tenure/core';
import { AtRiskIndex, type IndexedRow } from './atRiskIndex.js';
import { bandRange } from './bandRange.js';
import { codePointKey, compareKeys } from './codePointKey.js';
import { EventLog, NO_EVENT } from './eventLog.js';

/** One customer: the subscriber, its latest reported activity, its latest event and its materialized row. */
export interface CustomerEntry extends IndexedRow {
  subscriber: Subscriber;
  /** The priority-1 recommendation at `assessedAt` (kept, so reading a page allocates almost nothing). */
  top: Recommendation | null;
  assessedAt: number;
  reported: number | null;
  lastSeq: number;
}

/** Every customer of one memory store, with its event log and indexes. */
export class CustomerTable {
  readonly entries = new Map<string, CustomerEntry>();
  readonly log = new EventLog<HandledEvent>();
  private readonly ids = new Set<string>();
  /** `transactionOccurrenceOf` of every applied event that has one. */
  private readonly occurrences = new Set<string>();
  /** Ids of the TRANSFER events applied. */
  private readonly transfers = new Set<string>();
  private readonly index = new AtRiskIndex<CustomerEntry>();
  /** `list()` order; dropped when a customer is added. */
  private sorted: CustomerEntry[] | null = null;
  private fingerprint: string | null = null;
  private lastConfig: TenureConfig | null = null;

  /** Whether an event with this id, or another delivery of its transaction occurrence, was applied. */
  has(event: HandledEvent): boolean {
    if (this.ids.has(event.id)) return true;
    const occurrence = transactionOccurrenceOf(event);
    return occurrence !== undefined && this.occurrences.has(occurrence);
  }

  /** Re-materializes every row when `ctx.config` differs from the configuration the rows were built with. */
  useConfig({ now, config }: StoreContext): void {
    if (config === this.lastConfig) return;
    this.lastConfig = config;
    const next = configFingerprint(config);
    if (next === this.fingerprint) return;
    this.fingerprint = next;
    for (const entry of this.entries.values()) {
      const { row } = materializeAtRisk(entry.subscriber, now, config);
      entry.state = row.state;
      entry.score = row.score;
      entry.valueCents = Math.round(row.monthly_value_usd * 100);
      entry.rescoreAt = row.rescore_at;
      entry.top = row.top;
      entry.assessedAt = now;
    }
    this.index.rebuild([...this.entries.values()]);
  }

  /** Appends a new event (the caller checked its id) and applies it; returns the subscriber. */
  apply(event: HandledEvent, ctx: StoreContext): Subscriber {
    this.ids.add(event.id);
    const occurrence = transactionOccurrenceOf(event);
    if (occurrence !== undefined) this.occurrences.add(occurrence);
    const existing = this.entries.get(event.app_user_id);
    const subscriber = applyEvent(existing?.subscriber, event);
    if (existing !== undefined) {
      existing.lastSeq = this.log.append(event, existing.lastSeq);
      existing.subscriber = subscriber;
      this.materialize(existing, ctx);
      return subscriber;
    }
    this.addEntry(subscriber, this.log.append(event, NO_EVENT), null, ctx);
    return subscriber;
  }

  /** Adds a customer not in the table yet, with its row materialized at `ctx.now`. */
  private addEntry(subscriber: Subscriber, lastSeq: number, reported: number | null, ctx: StoreContext): CustomerEntry {
    const { row } = materializeAtRisk(subscriber, ctx.now, ctx.config);
    const entry: CustomerEntry = {
      id: subscriber.customer_id,
      key: codePointKey(subscriber.customer_id),
      subscriber,
      state: row.state,
      score: row.score,
      valueCents: Math.round(row.monthly_value_usd * 100),
      rescoreAt: row.rescore_at,
      top: row.top,
      assessedAt: ctx.now,
      reported,
      lastSeq,
    };
    this.entries.set(entry.id, entry);
    this.index.add(entry);
    this.sorted = null;
    return entry;
  }

  /**
   * Applies a TRANSFER unless its id was seen: the senders' event chains join the receiver's (each
   * event re-keyed to it), the receiver is folded again with the latest reported activity of all
   * of them, and the senders' entries leave the table and the indexes.
   */
  transfer(event: TransferEvent, ctx: StoreContext): TransferOutcome {
    if (this.transfers.has(event.id)) return { status: 'duplicate' };
    this.transfers.add(event.id);
    const { from, to } = transferOf(event);
    const receiver = to[0];
    const target = receiver === undefined ? undefined : this.entries.get(receiver);
    const senders = receiver === undefined ? [] : from.flatMap((id) => this.entries.get(id) ?? []);
    if (receiver === undefined || senders.length === 0) return { status: 'applied', receiver, moved: 0, subscriber: target?.subscriber };
    const seqs = [...(target === undefined ? [] : this.log.seqsOf(target.lastSeq))];
    let moved = 0;
    let reported = target?.reported ?? null;
    for (const sender of senders) {
      const own = this.log.seqsOf(sender.lastSeq);
      moved += own.length;
      seqs.push(...own);
      if (sender.reported !== null) reported = reported === null ? sender.reported : Math.max(reported, sender.reported);
      this.entries.delete(sender.id);
      this.index.remove(sender);
    }
    this.sorted = null;
    const lastSeq = this.log.merge(seqs, (e) => ({ ...e, app_user_id: receiver }));
    if (target !== undefined) {
      target.lastSeq = lastSeq;
      target.reported = reported;
      this.rebuild(target, ctx);
      return { status: 'applied', receiver, moved, subscriber: target.subscriber };
    }
    const folded = foldEvents([...this.log.chain(lastSeq)])!; // at least one event moved
    const subscriber = reported === null ? folded : recordActivity(folded, reported);
    this.addEntry(subscriber, lastSeq, reported, ctx);
    return { status: 'applied', receiver, moved, subscriber };
  }

  /** Keeps the latest reported activity and applies it; undefined (nothing kept) for an unknown customer. */
  recordActivity(customerId: string, at: number, ctx: StoreContext): Subscriber | undefined {
    const entry = this.entries.get(customerId);
    if (entry === undefined) return undefined;
    entry.reported = entry.reported === null ? at : Math.max(entry.reported, at);
    const next = recordActivity(entry.subscriber, at);
    if (next !== entry.subscriber) {
      entry.subscriber = next;
      this.materialize(entry, ctx);
    }
    return next;
  }

  /** Re-materializes up to `limit` rows due at `ctx.now`; returns how many. */
  refresh(ctx: StoreContext, limit: number): number {
    const due = this.index.takeDue(ctx.now, limit);
    for (const entry of due) this.materialize(entry, ctx);
    return due.length;
  }

  /** The page of a query and its total, read from the indexes (the caller refreshed due rows first). */
  page<Q extends AtRiskQuery>(query: Q, config: TenureConfig): AtRiskPage<AtRiskEntry, PositionOf<Q>> {
    const { minScore, maxScore } = bandRange(query.band, atRiskMinScore(query, config), config.bands);
    const { rows, more } =
      query.sort === 'revenue'
        ? this.index.revenuePage({ minScore, maxScore, state: query.state, after: query.after }, query.limit)
        : this.index.page({ minScore, maxScore, state: query.state, after: query.after }, query.limit);
    const items = rows.map(
      (entry): AtRiskEntry => ({
        customer_id: entry.id,
        state: entry.state,
        score: entry.score,
        band: bandFor(entry.score, config.bands),
        monthly_value_usd: entry.valueCents / 100,
        top: entry.top,
        assessed_at: entry.assessedAt,
        rescore_at: entry.rescoreAt,
        subscriber: entry.subscriber,
      }),
    );
    const last = items[items.length - 1];
    return {
      items,
      next: more && last !== undefined ? positionIn(query, last) : null,
      total: this.index.total({ minScore, maxScore, state: query.state }),
    };
  }

  /** Folds a customer's stored events and reported activity again, and re-materializes the row. */
  rebuild(entry: CustomerEntry, ctx: StoreContext): void {
    let subscriber: Subscriber | undefined;
    for (const event of this.log.chain(entry.lastSeq)) subscriber = applyEvent(subscriber, event);
    if (subscriber === undefined) return; // every entry has at least one event
    entry.subscriber = entry.reported === null ? subscriber : recordActivity(subscriber, entry.reported);
    this.materialize(entry, ctx);
  }

  /** One customer's events, newest first (`timelinePage` over its chain: the cost is its own history). */
  eventsOf(customerId: string, query: TimelineQuery): EventPage {
    const entry = this.entries.get(customerId);
    return timelinePage(entry === undefined ? [] : [...this.log.chain(entry.lastSeq)], query);
  }

  /** Every entry in customer id order (code point order). */
  inIdOrder(): readonly CustomerEntry[] {
    this.sorted ??= [...this.entries.values()].sort((a, b) => compareKeys(a.key, b.key));
    return this.sorted;
  }

  /** Materializes `entry` at `ctx.now` and moves it in the indexes. */
  private materialize(entry: CustomerEntry, { now, config }: StoreContext): void {
    const { row } = materializeAtRisk(entry.subscriber, now, config);
    entry.top = row.top;
    entry.assessedAt = now;
    this.index.update(entry, { state: row.state, score: row.score, valueCents: Math.round(row.monthly_value_usd * 100), rescoreAt: row.rescore_at });
  }
}
