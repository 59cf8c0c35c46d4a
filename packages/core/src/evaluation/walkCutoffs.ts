/**
 * One pass through a history in time order that assesses every live subscriber at each cutoff
 * using only what came before it, and labels each of them at cutoff + horizon. The fold is done
 * once: the cost is one fold of the history plus one assessment per live subscriber per cutoff,
 * never a refold from the start per cutoff.
 */
import type { HandledEvent } from '../events/webhookSchema.js';
import type { StoredRecord } from '../store/subscriberStore.js';
import { applyEvent } from '../subscriber/applyEvent.js';
import { distinctOccurrences } from '../subscriber/foldEvents.js';
import { recordActivity } from '../subscriber/recordActivity.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { hasLapsed, isEndedState, isLiveAt } from './churnOutcome.js';

/** What the walk hands to its caller. */
export interface WalkVisitor<T> {
  /** A live subscriber at cutoff `index` (instant `at`): returns what to keep until it is labelled. */
  assess(index: number, subscriber: Subscriber, at: number): T;
  /** The outcome of a kept value: whether the subscriber churned in [cutoff, cutoff + horizon). */
  label(index: number, value: T, churned: boolean): void;
  /** Called after each of the `total` steps (two per cutoff: its assessment, its label), e.g. to draw a progress bar. */
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
  customers: number;
}

interface Holder {
  subscriber: Subscriber;
  /** When the subscriber last became churned or refunded (the event's time). */
  endedAt: number | null;
}

const byEventTime = (a: HandledEvent, b: HandledEvent) => a.event_timestamp_ms - b.event_timestamp_ms;

/**
 * Given a history (events and reported activity, in any order, with repeated deliveries), cutoffs
 * ascending, a horizon and the lapse allowance, calls `visitor.assess` for every subscriber live at
 * each cutoff, folded from the records strictly before it, and later `visitor.label` with whether it
 * churned (became churned or refunded, or lapsed) in [cutoff, cutoff + horizon). Duplicates are
 * dropped as the stores drop them (`distinctOccurrences`). Pure (the visitor may keep what it is given).
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
  const raw: HandledEvent[] = [];
  const activity: { customer_id: string; at: number }[] = [];
  for (const record of records) {
    if (record.kind === 'event') raw.push(record.event);
    else activity.push(record);
  }
  const events = distinctOccurrences(raw).sort(byEventTime);
  // Reports in time order, a repeated one (same customer and instant) kept once.
  activity.sort((a, b) => a.at - b.at || (a.customer_id < b.customer_id ? -1 : a.customer_id > b.customer_id ? 1 : 0));
  let kept = 0;
  for (let i = 0; i < activity.length; i += 1) {
    const r = activity[i]!;
    const prev = activity[kept - 1];
    if (prev !== undefined && prev.at === r.at && prev.customer_id === r.customer_id) continue;
    activity[kept] = r;
    kept += 1;
  }
  const activityDuplicates = activity.length - kept;
  activity.length = kept;

  // Every instant: a cutoff (assess) or a cutoff's horizon end (label); labels first on a tie, so a
  // cutoff equal to an earlier one's horizon end sees the same records.
  const instants: { at: number; index: number; label: boolean }[] = [];
  cutoffs.forEach((at, index) => {
    instants.push({ at, index, label: false });
    instants.push({ at: at + horizonMs, index, label: true });
  });
  instants.sort((a, b) => a.at - b.at || Number(b.label) - Number(a.label));

  const holders = new Map<string, Holder>();
  const pending = new Map<number, { holders: Holder[]; values: T[] }>();
  let e = 0;
  let a = 0;
  const advanceTo = (at: number) => {
    while (e < events.length || a < activity.length) {
      const nextEvent = e < events.length ? events[e]!.event_timestamp_ms : Infinity;
      const nextActivity = a < activity.length ? activity[a]!.at : Infinity;
      if (nextEvent >= at && nextActivity >= at) return;
      if (nextEvent <= nextActivity) {
        const event = events[e]!;
        e += 1;
        const holder = holders.get(event.app_user_id);
        const next = applyEvent(holder?.subscriber, event);
        if (holder === undefined) {
          holders.set(event.app_user_id, { subscriber: next, endedAt: isEndedState(next.state) && next.state_key !== null ? event.event_timestamp_ms : null });
        } else {
          if (isEndedState(next.state) && next.state_key !== null && !isEndedState(holder.subscriber.state)) holder.endedAt = event.event_timestamp_ms;
          holder.subscriber = next;
        }
      } else {
        const report = activity[a]!;
        a += 1;
        const holder = holders.get(report.customer_id);
        if (holder !== undefined) holder.subscriber = recordActivity(holder.subscriber, report.at);
      }
    }
  };

  let done = 0;
  for (const instant of instants) {
    if (done > 0) visitor.progress?.(done, instants.length);
    done += 1;
    advanceTo(instant.at);
    const cutoff = cutoffs[instant.index]!;
    if (!instant.label) {
      const live = { holders: [] as Holder[], values: [] as T[] };
      for (const holder of holders.values()) {
        if (!isLiveAt(holder.subscriber, cutoff, lapseMs)) continue;
        live.holders.push(holder);
        live.values.push(visitor.assess(instant.index, holder.subscriber, cutoff));
      }
      pending.set(instant.index, live);
      continue;
    }
    const live = pending.get(instant.index)!;
    pending.delete(instant.index);
    for (let i = 0; i < live.holders.length; i += 1) {
      const holder = live.holders[i]!;
      const churned = (holder.endedAt !== null && holder.endedAt >= cutoff) || hasLapsed(holder.subscriber, instant.at, lapseMs);
      visitor.label(instant.index, live.values[i]!, churned);
    }
  }
  visitor.progress?.(instants.length, instants.length);
  return { events: events.length, duplicates: raw.length - events.length + activityDuplicates, activity: activity.length, customers: holders.size };
}
