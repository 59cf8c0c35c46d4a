/**
 * One pass through a history that assesses every live subscriber at each cutoff using only what
 * came before it, and labels each of them at cutoff + horizon. Each customer's records are folded
 * once, in time order, stopping at every cutoff and horizon end on the way: the cost is one fold of
 * the history plus one assessment per live subscriber per cutoff, never a refold per cutoff.
 * Customers are independent (the reducer is per customer), so the walk goes customer by customer:
 * no global sort of the history, and one customer's records stay in cache while it is walked.
 */
import type { HandledEvent } from '../events/webhookSchema.js';
import type { StoredRecord } from '../store/subscriberStore.js';
import { applyEvent } from '../subscriber/applyEvent.js';
import { distinctOccurrences } from '../subscriber/distinctOccurrences.js';
import { recordActivity } from '../subscriber/recordActivity.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { hasLapsed, isEndedState, isLiveAt } from './churnOutcome.js';

/** What the walk hands to its caller. */
export interface WalkVisitor<T> {
  /** A live subscriber at cutoff `index` (instant `at`): returns what to keep until it is labelled. */
  assess(index: number, subscriber: Subscriber, at: number): T;
  /** The outcome of a kept value: whether the subscriber churned in [cutoff, cutoff + horizon). */
  label(index: number, value: T, churned: boolean): void;
  /** Called as the walk goes with the customers walked of all `total` (monotone, about a hundred times, ending at `total`), e.g. to draw a progress bar. */
  progress?(done: number, total: number): void;
}

/** What the walk saw. */
export interface WalkSummary {
  /** Distinct events. */
  events: number;
  /** Repeated deliveries dropped: events (by id and occurrence) and activity reports (same customer and instant). */
  duplicates: number;
  /** Distinct activity reports. */
  activity: number;
  /** Customers with at least one distinct event. */
  customers: number;
}

/** Progress is reported about this many times over the walk. */
const PROGRESS_STEPS = 100;

const byEventTime = (a: HandledEvent, b: HandledEvent) => a.event_timestamp_ms - b.event_timestamp_ms;

/** Adds `item` to the list of `key`; consecutive records of one customer (the usual order of an export) skip the lookup. */
function grouper<T>(): { add(key: string, item: T): void; groups: Map<string, T[]> } {
  const groups = new Map<string, T[]>();
  let lastKey: string | undefined;
  let last: T[] = [];
  return {
    groups,
    add(key, item) {
      if (key !== lastKey) {
        lastKey = key;
        let group = groups.get(key);
        if (group === undefined) groups.set(key, (group = []));
        last = group;
      }
      last.push(item);
    },
  };
}

/** Sorts ascending in place unless already sorted (a customer's reports usually are); returns how many distinct values. */
function sortDistinct(times: number[]): number {
  let sorted = true;
  for (let i = 1; i < times.length && sorted; i += 1) sorted = times[i - 1]! <= times[i]!;
  if (!sorted) times.sort((x, y) => x - y);
  let distinct = times.length === 0 ? 0 : 1;
  for (let i = 1; i < times.length; i += 1) if (times[i] !== times[i - 1]) distinct += 1;
  return distinct;
}

/** One customer's history, ready to walk: its distinct events in time order (ties in delivery order), its distinct activity instants ascending. */
export interface CustomerHistory {
  events: readonly HandledEvent[];
  activity: readonly number[];
}

/**
 * A history grouped by customer, as `groupHistory` builds it from records in memory or a reader
 * streams it from disk (`tenure backtest` on a large file): the customers with at least one
 * distinct event, walked once, in any order; what the walk reports about the whole history; and its
 * span (first and last record, events and activity, null without any).
 */
export interface GroupedHistory {
  customers: Iterable<CustomerHistory>;
  summary: WalkSummary;
  span: { first: number; last: number } | null;
}

/**
 * Given a history (events and reported activity, in any order, with repeated deliveries), returns
 * it grouped by customer: duplicates dropped as the stores drop them (`distinctOccurrences`; a
 * report repeated for a customer and instant counts once), each customer's events in time order
 * (a stable sort: events of one instant keep their delivery order) and its distinct report instants
 * ascending. Pure.
 *
 * @example
 * groupHistory(records).summary.customers; // 3
 */
export function groupHistory(records: readonly StoredRecord[]): GroupedHistory {
  const raw: HandledEvent[] = [];
  const reports = grouper<number>();
  let first = Infinity;
  let last = -Infinity;
  for (const record of records) {
    const at = record.kind === 'event' ? record.event.event_timestamp_ms : record.at;
    if (at < first) first = at;
    if (at > last) last = at;
    if (record.kind === 'event') raw.push(record.event);
    else reports.add(record.customer_id, record.at);
  }
  const events = distinctOccurrences(raw);
  const byCustomer = grouper<HandledEvent>();
  for (const event of events) byCustomer.add(event.app_user_id, event);
  let activity = 0;
  let reported = 0;
  const customers: CustomerHistory[] = [];
  for (const [customerId, own] of byCustomer.groups) {
    // A stable sort: events of one instant keep their order, as in a sort of the whole history.
    for (let i = 1; i < own.length; i += 1) {
      if (own[i - 1]!.event_timestamp_ms > own[i]!.event_timestamp_ms) {
        own.sort(byEventTime);
        break;
      }
    }
    const times = reports.groups.get(customerId) ?? [];
    const distinct = sortDistinct(times);
    activity += distinct;
    reported += times.length;
    customers.push({ events: own, activity: distinct === times.length ? times : dedupeSorted(times) });
  }
  // Reports of customers without an event: counted, never applied.
  for (const [customerId, times] of reports.groups) {
    if (byCustomer.groups.has(customerId)) continue;
    activity += sortDistinct(times);
    reported += times.length;
  }
  return {
    customers,
    summary: { events: events.length, duplicates: raw.length - events.length + reported - activity, activity, customers: customers.length },
    span: first === Infinity ? null : { first, last },
  };
}

/** A sorted list without its repeats. */
function dedupeSorted(times: readonly number[]): number[] {
  const out: number[] = [];
  for (const t of times) if (out.length === 0 || out[out.length - 1] !== t) out.push(t);
  return out;
}

/**
 * Given a history grouped by customer, cutoffs ascending, a horizon and the lapse allowance, calls
 * `visitor.assess` for every subscriber live at each cutoff, folded from the records strictly
 * before it, and later `visitor.label` with whether it churned (became churned or refunded, or
 * lapsed) in [cutoff, cutoff + horizon). Activity counts from the customer's first event on, as a
 * live store keeps it. Customer by customer: a customer's assessments and labels come before the
 * next customer's, and only one customer is held at a time (the history's own iterable decides what
 * else is in memory). Returns the history's summary. Pure (the visitor may keep what it is given).
 *
 * @example
 * walkCustomers(groupHistory(records), [t1, t2], 30 * DAY, DEFAULT_LAPSE_MS, visitor);
 */
export function walkCustomers<T>(history: GroupedHistory, cutoffs: readonly number[], horizonMs: number, lapseMs: number, visitor: WalkVisitor<T>): WalkSummary {
  // Every instant: a cutoff (assess) or a cutoff's horizon end (label); labels first on a tie, so a
  // cutoff equal to an earlier one's horizon end sees the same records.
  const instants: { at: number; index: number; label: boolean }[] = [];
  cutoffs.forEach((at, index) => {
    instants.push({ at, index, label: false });
    instants.push({ at: at + horizonMs, index, label: true });
  });
  instants.sort((a, b) => a.at - b.at || Number(b.label) - Number(a.label));

  const live = new Uint8Array(cutoffs.length);
  const values: (T | undefined)[] = new Array<T | undefined>(cutoffs.length);
  const customers = history.summary.customers;
  const every = Math.max(1, Math.ceil(customers / PROGRESS_STEPS));
  let done = 0;
  for (const { events: own, activity: times } of history.customers) {
    if (own.length === 0) continue;
    // Reports before the customer's first event are dropped (a store does not know it yet). Being a
    // maximum, the latest report before an instant is all the walk needs of them.
    let a = 0;
    while (a < times.length && times[a]! < own[0]!.event_timestamp_ms) a += 1;
    let latestReport: number | null = null;
    let subscriber: Subscriber | undefined;
    /** When the subscriber last became churned or refunded (the event's time). */
    let endedAt: number | null = null;
    let e = 0;
    for (const instant of instants) {
      while (e < own.length && own[e]!.event_timestamp_ms < instant.at) {
        // The events of one instant at once: the state between two of them is not a state the
        // subscriber was ever in (their order at an instant is the fold's key, not the delivery's),
        // so an end is read from the state before the instant and the state after it.
        const at = own[e]!.event_timestamp_ms;
        const before = subscriber;
        for (; e < own.length && own[e]!.event_timestamp_ms === at; e += 1) subscriber = applyEvent(subscriber, own[e]!);
        if (isEndedState(subscriber!.state) && subscriber!.state_key !== null && (before === undefined || !isEndedState(before.state))) endedAt = at;
      }
      for (; a < times.length && times[a]! < instant.at; a += 1) latestReport = times[a]!;
      const index = instant.index;
      const cutoff = cutoffs[index]!;
      if (!instant.label) {
        live[index] = subscriber !== undefined && isLiveAt(subscriber, cutoff, lapseMs) ? 1 : 0;
        if (live[index] === 1) values[index] = visitor.assess(index, latestReport === null ? subscriber! : recordActivity(subscriber!, latestReport), cutoff);
      } else if (live[index] === 1) {
        const churned = (endedAt !== null && endedAt >= cutoff) || hasLapsed(subscriber!, instant.at, lapseMs);
        visitor.label(index, values[index]!, churned);
        values[index] = undefined;
      }
    }
    done += 1;
    if (done % every === 0 && done < customers) visitor.progress?.(done, customers);
  }
  visitor.progress?.(customers, customers);
  return history.summary;
}

/**
 * Given a history (events and reported activity, in any order, with repeated deliveries), cutoffs
 * ascending, a horizon and the lapse allowance, walks it as `walkCustomers` does after
 * `groupHistory`. Pure (the visitor may keep what it is given).
 *
 * @example
 * walkCutoffs(records, [t1, t2], 30 * DAY, DEFAULT_LAPSE_MS, { assess: (i, s, at) => scoreSubscriber(s, at).score, label: (i, score, churned) => addSample(h[i], score, churned) });
 */
export function walkCutoffs<T>(
  records: readonly StoredRecord[],
  cutoffs: readonly number[],
  horizonMs: number,
  lapseMs: number,
  visitor: WalkVisitor<T>,
): WalkSummary {
  return walkCustomers(groupHistory(records), cutoffs, horizonMs, lapseMs, visitor);
}
