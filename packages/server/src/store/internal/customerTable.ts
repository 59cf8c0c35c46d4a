/**
 * The memory store's state, all synchronous: the event log, the applied ids and transaction occurrences, one entry per
 * customer (subscriber, reported activity, latest event, materialized row) and the at-risk
 * indexes over the entries. The store wraps it in the async port; keeping every operation
 * synchronous here is what makes each one atomic.
 */
import { applyEvent, configFingerprint, identityIdsOf, materializeAtRisk, reKeyToReceiver, recordActivity, timelinePage, transferOf } from '@tenure/core';
import type { AtRiskEntry, AtRiskPage, AtRiskQuery, EventPage, TimelineQuery, HandledEvent, OccurrenceHolder, PositionOf, StoreContext, Subscriber, TenureConfig, TransferEvent, TransferOutcome } from '@tenure/core';
import { AtRiskIndex } from './atRiskIndex.js';
import type { CustomerEntry } from './customerEntry.js';
import { codePointKey, compareKeys } from './codePointKey.js';
import { copyOf, EventLog, NO_EVENT } from './eventLog.js';
import { readEntryPage } from './entryPage.js';
import { MovedSubscriptions } from './movedSubscriptions.js';
import { OccurrenceIndex } from './occurrenceIndex.js';
import { PersonIndex } from './personIndex.js';

export type { CustomerEntry } from './customerEntry.js';

/** Every customer of one memory store, with its event log and indexes. */
export class CustomerTable {
  readonly entries = new Map<string, CustomerEntry>();
  readonly log = new EventLog<HandledEvent>();
  private readonly ids = new Set<string>();
  /** The transaction occurrences of the applied events, to their events' seqs. */
  private readonly occurrences = new OccurrenceIndex();
  /** Ids of the TRANSFER events applied. */
  private readonly transfers = new Set<string>();
  /** The subscriptions transfers moved, to their receivers: `route` re-keys their later events. */
  readonly moved = new MovedSubscriptions();
  private readonly index = new AtRiskIndex<CustomerEntry>();
  /** Every id a stored event names, to its person's entry (docs/rules.md §2, aliases). */
  private readonly people = new PersonIndex();
  /** `list()` order; dropped when a customer is added. */
  private sorted: CustomerEntry[] | null = null;
  private fingerprint: string | null = null;
  private lastConfig: TenureConfig | null = null;

  /** Whether an event with this id, or another delivery of its transaction occurrence, was applied. */
  has(event: HandledEvent): boolean {
    return this.ids.has(event.id) || this.occurrences.has(event);
  }

  /** Given an event `has` found, who holds its occurrence when none of its ids names that person (`OccurrenceIndex`); undefined for a redelivered id. */
  holderOf(event: HandledEvent): OccurrenceHolder | undefined {
    return this.ids.has(event.id) ? undefined : this.occurrences.holderOf(event, this.log, this.people);
  }

  /**
   * Re-materializes every row when `ctx.config` differs from the configuration the rows were built
   * with; returns how many, or null when the rows were built with it.
   */
  useConfig({ now, config }: StoreContext): number | null {
    if (config === this.lastConfig) return null;
    this.lastConfig = config;
    const next = configFingerprint(config);
    if (next === this.fingerprint) return null;
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
    return this.entries.size;
  }

  /** The entry of the person `id` names (any of its ids), or undefined. */
  entryOf(id: string): CustomerEntry | undefined {
    const key = this.people.of(id);
    return key === undefined ? undefined : this.entries.get(key);
  }

  /**
   * Appends a new event (the caller checked its id) and applies it to the person its ids name;
   * an event naming ids of several persons merges them, and a person whose latest event names
   * another id moves to it (both re-fold from the union of the events); returns the person's entry.
   * With `assess` false (an import session), a person already stored keeps its row until the
   * caller materializes it.
   */
  apply(event: HandledEvent, ctx: StoreContext, assess = true): CustomerEntry {
    this.ids.add(event.id);
    this.occurrences.add(event, this.log.size); // the seq `append` gives it below
    const ids = identityIdsOf(event);
    const people = this.people.keysOf(ids).map((key) => this.entries.get(key)!);
    const existing = people.length === 1 ? people[0]! : undefined;
    if (people.length === 0) {
      const subscriber = applyEvent(undefined, event);
      const entry = this.addEntry(subscriber, this.log.append(event, NO_EVENT), null, ctx);
      this.people.assign(subscriber.customer_id, [], ids);
      return entry;
    }
    if (existing !== undefined) {
      const subscriber = applyEvent(existing.subscriber, event);
      existing.lastSeq = this.log.append(event, existing.lastSeq);
      if (subscriber.customer_id !== existing.id) return this.replace(people, this.log.seqsOf(existing.lastSeq), ids, ctx);
      existing.subscriber = subscriber;
      if (assess) this.materialize(existing, ctx);
      this.people.assign(existing.id, [], ids);
      return existing;
    }
    const seqs = people.flatMap((entry) => this.log.seqsOf(entry.lastSeq));
    seqs.push(this.log.append(event, NO_EVENT));
    return this.replace(people, seqs, ids, ctx);
  }

  /**
   * Replaces `old` entries by one folded from the events at `seqs` (made one chain) with the latest
   * reported activity of all, keyed by the fold's `customer_id`; the old entries' ids and `ids` now
   * find it. Returns the new entry.
   */
  private replace(old: readonly CustomerEntry[], seqs: readonly number[], ids: readonly string[], ctx: StoreContext): CustomerEntry {
    const lastSeq = this.log.merge(seqs);
    let reported: number | null = null;
    for (const entry of old) {
      if (entry.reported !== null) reported = reported === null ? entry.reported : Math.max(reported, entry.reported);
      this.entries.delete(entry.id);
      this.index.remove(entry);
    }
    let folded: Subscriber | undefined;
    for (const event of this.log.chain(lastSeq)) folded = applyEvent(folded, event);
    const subscriber = reported === null ? folded! : recordActivity(folded!, reported);
    const entry = this.addEntry(subscriber, lastSeq, reported, ctx);
    this.people.assign(subscriber.customer_id, old.map((entry) => entry.id), ids);
    return entry;
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
   * Applies a TRANSFER unless its id was seen: the senders' persons' event chains join the
   * receiver's person (each moved event re-keyed to the receiving id, without the sender's ids:
   * `reKeyToReceiver`), the receiver is folded again with the latest reported activity of all of
   * them, and the senders' entries and ids leave the table and the indexes; each moved event's
   * subscription now routes to the receiver (`moved`). A sender that is the receiver's own person
   * under another id moves nothing.
   */
  transfer(event: TransferEvent, ctx: StoreContext): TransferOutcome {
    if (this.transfers.has(event.id)) return { status: 'duplicate' };
    this.transfers.add(event.id);
    const { from, to } = transferOf(event);
    const receiver = to[0];
    const target = receiver === undefined ? undefined : this.entryOf(receiver);
    const senders = receiver === undefined ? [] : [...new Set(from.flatMap((id) => this.entryOf(id) ?? []))].filter((entry) => entry !== target);
    if (receiver === undefined || senders.length === 0) return { status: 'applied', receiver, moved: 0, subscriber: target?.subscriber };
    const seqs = target === undefined ? [] : this.log.seqsOf(target.lastSeq);
    let moved = 0;
    for (const sender of senders) {
      const own = this.log.seqsOf(sender.lastSeq);
      moved += own.length;
      for (const seq of own) {
        this.log.rewrite(seq, (e) => {
          this.moved.record(e, receiver);
          return reKeyToReceiver(e, receiver);
        });
      }
      seqs.push(...own);
      this.people.release(sender.id);
    }
    const { subscriber } = this.replace(target === undefined ? senders : [target, ...senders], seqs, [receiver], ctx);
    return { status: 'applied', receiver, moved, subscriber };
  }

  /** Keeps the latest reported activity and applies it; undefined (nothing kept) for an unknown customer. */
  recordActivity(customerId: string, at: number, ctx: StoreContext): Subscriber | undefined {
    const entry = this.entryOf(customerId);
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
    return readEntryPage(this.index, query, config);
  }

  /** Folds a customer's stored events and reported activity again, and re-materializes the row. */
  rebuild(entry: CustomerEntry, ctx: StoreContext): void {
    let subscriber: Subscriber | undefined;
    for (const event of this.log.chain(entry.lastSeq)) subscriber = applyEvent(subscriber, event);
    if (subscriber === undefined) return; // every entry has at least one event
    entry.subscriber = entry.reported === null ? subscriber : recordActivity(subscriber, entry.reported);
    this.materialize(entry, ctx);
  }

  /** The events of the person `customerId` names (any of its ids), newest first (`timelinePage` over its chain: the cost is its own history). */
  eventsOf(customerId: string, query: TimelineQuery): EventPage {
    const entry = this.entryOf(customerId);
    const page = timelinePage(entry === undefined ? [] : [...this.log.chain(entry.lastSeq)], query);
    // The page leaves the store: fresh copies, so a caller's change never reaches the stored events.
    return { ...page, items: page.items.map(copyOf) };
  }

  /** Every entry in customer id order (code point order). */
  inIdOrder(): readonly CustomerEntry[] {
    this.sorted ??= [...this.entries.values()].sort((a, b) => compareKeys(a.key, b.key));
    return this.sorted;
  }

  /** Materializes `entry` at `ctx.now` and moves it in the indexes. */
  materialize(entry: CustomerEntry, { now, config }: StoreContext): void {
    const { row } = materializeAtRisk(entry.subscriber, now, config);
    entry.top = row.top;
    entry.assessedAt = now;
    this.index.update(entry, { state: row.state, score: row.score, valueCents: Math.round(row.monthly_value_usd * 100), rescoreAt: row.rescore_at });
  }
}
