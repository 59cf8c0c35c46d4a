/**
 * A subscriber's timeline of received events: the page shape of `SubscriberStore.eventsOf` and its
 * order (event time descending, then event id descending in code point order), written once so
 * every store and the reference agree.
 */
import { compareIds } from '../atRisk/compareIds.js';
import type { HandledEvent } from '../events/webhookSchema.js';

/** A position in a timeline: the event time and id of the last item of the previous page. */
export interface TimelineCursor {
  event_timestamp_ms: number;
  id: string;
}

/** A page of one customer's events, newest first; pass `next` back as `before` for the next page (null: no more). */
export interface EventPage {
  items: HandledEvent[];
  next: TimelineCursor | null;
}

/** What `eventsOf` reads: at most `limit` events, those after `before` in timeline order when given. */
export interface TimelineQuery {
  limit: number;
  before?: TimelineCursor | undefined;
}

/**
 * Given two timeline positions, returns a negative number when `a` comes first in a timeline
 * (newer: a later event time, or the same time and a greater id in code point order), positive
 * when `b` does, 0 for the same position. Pure.
 *
 * @example
 * compareTimeline({ event_timestamp_ms: 2, id: 'a' }, { event_timestamp_ms: 1, id: 'z' }); // < 0
 */
export function compareTimeline(a: TimelineCursor, b: TimelineCursor): number {
  if (a.event_timestamp_ms !== b.event_timestamp_ms) return b.event_timestamp_ms - a.event_timestamp_ms;
  return compareIds(b.id, a.id);
}

/**
 * Given one customer's events (any order) and a query, returns the page `eventsOf` answers: newest
 * first, strictly after `before` when given, at most `limit` items, with the cursor of the last item
 * when more follow. Pure; the reference of the contract suite and the memory store's implementation.
 *
 * @example
 * timelinePage(events, { limit: 20 }); // { items: [newest, ...], next: { event_timestamp_ms, id } | null }
 */
export function timelinePage(events: readonly HandledEvent[], query: TimelineQuery): EventPage {
  const limit = Math.max(0, Math.floor(query.limit));
  const { before } = query;
  const sorted = events.filter((e) => before === undefined || compareTimeline(before, e) < 0).sort(compareTimeline);
  const items = sorted.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next: sorted.length > limit && last !== undefined ? cursorOf(last) : null };
}

/** The timeline position of an event. Pure. */
export const cursorOf = (event: HandledEvent): TimelineCursor => ({ event_timestamp_ms: event.event_timestamp_ms, id: event.id });
