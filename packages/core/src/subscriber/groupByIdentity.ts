/**
 * One person under several ids (docs/rules.md §2, aliases): which events belong to one subscriber.
 * RevenueCat names a person on every event by `app_user_id`, `original_app_user_id` and `aliases`;
 * events that share an id, directly or through a chain of others, are one person (the connected
 * components of the graph whose edges are the ids each event names). The group is named by the id
 * the app uses now, the `app_user_id` of its latest event, which is the fold's `customer_id`.
 * The stores keep the same grouping incrementally (an index from every id to its person's record);
 * these functions are the reference they are tested against.
 */
import { compareIds } from '../atRisk/compareIds.js';
import type { HandledEvent } from '../events/webhookSchema.js';
import { applyEvent, MAX_ALIASES } from './applyEvent.js';
import { EVENT_PRECEDENCE, isLaterKey } from './eventKey.js';
import { distinctOccurrences } from './distinctOccurrences.js';
import type { EventKey, Subscriber } from './subscriber.js';

/**
 * Given an event, returns the ids it names for its person, deduplicated in code-point order:
 * `app_user_id`, `original_app_user_id` and the `MAX_ALIASES` smallest `aliases` (an alias past
 * them joins nothing: every event still names its own `app_user_id` and original id). Pure.
 *
 * @example
 * identityIdsOf({ ...renewal, app_user_id: 'user_42', original_app_user_id: '$RCAnonymousID:ab', aliases: ['user_42'] });
 * // ['$RCAnonymousID:ab', 'user_42']
 */
export function identityIdsOf(event: Pick<HandledEvent, 'app_user_id' | 'original_app_user_id' | 'aliases'>): string[] {
  // Nearly every event names one or two ids, its aliases repeating them: answered without a set and
  // a sort (every ingested event comes here).
  const app = event.app_user_id;
  const original = event.original_app_user_id;
  const named = event.aliases;
  if (named == null || named.length === 0 || (named.length === 1 && (named[0] === app || named[0] === original))) {
    if (original == null || original === app) return [app];
    return compareIds(app, original) < 0 ? [app, original] : [original, app];
  }
  const ids = new Set<string>([app]);
  if (original != null) ids.add(original);
  // Past the fast path, `named` holds at least one alias.
  const bounded = named.length > MAX_ALIASES ? [...new Set(named)].sort(compareIds).slice(0, MAX_ALIASES) : named;
  for (const alias of bounded) ids.add(alias);
  return [...ids].sort(compareIds);
}

const keyOf = (event: HandledEvent): EventKey => ({ at: event.event_timestamp_ms, rank: EVENT_PRECEDENCE[event.type], id: event.id });

/**
 * Given events (of any customers, in any order), returns them grouped by person: two events are in
 * one group when they name a common id (`identityIdsOf`), directly or through other events. Each
 * group is keyed by the `app_user_id` of its latest event (by event time, lifecycle precedence,
 * then id: the key the fold's `customer_id` follows), and keeps its events in input order. The
 * groups do not depend on the order of the input. Pure.
 *
 * @example
 * groupByIdentity([anonymousPurchase, renewalAfterLogin]); // Map { 'user_42' => [anonymousPurchase, renewalAfterLogin] }
 */
export function groupByIdentity(events: readonly HandledEvent[]): Map<string, HandledEvent[]> {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) root = up;
    for (let at = id; at !== root; ) {
      const next = parent.get(at)!;
      parent.set(at, root);
      at = next;
    }
    return root;
  };
  for (const event of events) {
    const [first, ...rest] = identityIdsOf(event);
    if (!parent.has(first!)) parent.set(first!, first!);
    for (const id of rest) {
      if (!parent.has(id)) parent.set(id, id);
      const a = find(first!);
      const b = find(id);
      if (a !== b) parent.set(b, a);
    }
  }
  const byRoot = new Map<string, { latest: HandledEvent; events: HandledEvent[] }>();
  for (const event of events) {
    const root = find(event.app_user_id);
    const group = byRoot.get(root);
    if (group === undefined) byRoot.set(root, { latest: event, events: [event] });
    else {
      group.events.push(event);
      if (isLaterKey(keyOf(event), keyOf(group.latest))) group.latest = event;
    }
  }
  const groups = new Map<string, HandledEvent[]>();
  for (const { latest, events: members } of byRoot.values()) groups.set(latest.app_user_id, members);
  return groups;
}

/**
 * Given an event log (any order, repeated deliveries included), returns one subscriber per person:
 * deliveries deduplicated as `foldEvents` does, grouped by `groupByIdentity`, each group folded
 * with `applyEvent`; keyed by the subscriber's `customer_id`. The reference the stores' grouping is
 * checked against. Pure.
 *
 * @example
 * foldByIdentity(log).get('user_42')?.aliases; // ['$RCAnonymousID:ab', 'user_42']
 */
export function foldByIdentity(events: readonly HandledEvent[]): Map<string, Subscriber> {
  const subscribers = new Map<string, Subscriber>();
  for (const [customer, members] of groupByIdentity(distinctOccurrences(events))) {
    let subscriber: Subscriber | undefined;
    for (const event of members) subscriber = applyEvent(subscriber, event);
    subscribers.set(customer, subscriber!);
  }
  return subscribers;
}
