/**
 * The deliberately simple model a store is checked against: a Map of subscribers folded with the
 * core's reducers, the set of applied event ids, the applied events in order, the latest reported
 * activity per customer, the clock and the configuration. At-risk answers come from the core's
 * full scan, `selectAtRisk`, over the model's subscribers.
 */
import {
  applyEvent,
  foldEvents,
  occurrenceKeyOf,
  recordActivity,
  transferOf,
  type HandledEvent,
  type TransferEvent,
  type TransferOutcome,
  type StoreContext,
  type Subscriber,
  type TenureConfig,
} from '@tenure/core';

/** The model of one store. Mutable: commands advance it as they run. */
export interface StoreModel {
  now: number;
  config: TenureConfig;
  /** The configurations a run may switch between. */
  readonly configs: readonly TenureConfig[];
  readonly subscribers: Map<string, Subscriber>;
  readonly ids: Set<string>;
  /** Occurrence keys (`occurrenceKeyOf`) of the applied events. */
  readonly occurrences: Set<string>;
  /** Ids of the applied transfers. */
  readonly transfers: Set<string>;
  /** Applied events, in the order they were stored. */
  readonly events: HandledEvent[];
  /** Latest reported activity of each known customer. */
  readonly reported: Map<string, number>;
}

/** Given the start time and the configurations (the first is current), returns an empty model. */
export const emptyModel = (now: number, configs: readonly TenureConfig[]): StoreModel => ({
  now,
  config: configs[0]!,
  configs,
  subscribers: new Map(),
  ids: new Set(),
  occurrences: new Set(),
  transfers: new Set(),
  events: [],
  reported: new Map(),
});

/** The context a store call is made with. */
export const contextOf = (model: StoreModel): StoreContext => ({ now: model.now, config: model.config });

/** Applies one delivered event to the model; returns what the store must answer. */
export function applyToModel(model: StoreModel, event: HandledEvent): 'applied' | 'duplicate' {
  if (model.ids.has(event.id) || model.occurrences.has(occurrenceKeyOf(event))) return 'duplicate';
  model.ids.add(event.id);
  model.occurrences.add(occurrenceKeyOf(event));
  model.events.push(event);
  model.subscribers.set(event.app_user_id, applyEvent(model.subscribers.get(event.app_user_id), event));
  return 'applied';
}

/** Records reported activity in the model; undefined (and nothing kept) for an unknown customer. */
export function recordActivityInModel(model: StoreModel, customerId: string, at: number): Subscriber | undefined {
  const current = model.subscribers.get(customerId);
  if (current === undefined) return undefined;
  model.reported.set(customerId, Math.max(model.reported.get(customerId) ?? at, at));
  const next = recordActivity(current, at);
  model.subscribers.set(customerId, next);
  return next;
}

/**
 * Applies a TRANSFER to the model (docs/rules.md §2): each sender's events are re-keyed to the
 * receiver where they stand in storage order, the senders leave, and the receiver is the fold of
 * its events with the latest activity reported for any of them; returns what the store must answer.
 */
export function transferInModel(model: StoreModel, event: TransferEvent): TransferOutcome {
  if (model.transfers.has(event.id)) return { status: 'duplicate' };
  model.transfers.add(event.id);
  const { from, to } = transferOf(event);
  const receiver = to[0];
  if (receiver === undefined) return { status: 'applied', receiver, moved: 0, subscriber: undefined };
  const senders = new Set(from.filter((id) => model.subscribers.has(id)));
  if (senders.size === 0) return { status: 'applied', receiver, moved: 0, subscriber: model.subscribers.get(receiver) };
  let moved = 0;
  model.events.forEach((e, i) => {
    if (!senders.has(e.app_user_id)) return;
    model.events[i] = { ...e, app_user_id: receiver };
    moved++;
  });
  const reports = [receiver, ...senders].flatMap((id) => model.reported.get(id) ?? []);
  for (const id of senders) {
    model.subscribers.delete(id);
    model.reported.delete(id);
  }
  const folded = foldEvents(model.events.filter((e) => e.app_user_id === receiver))!;
  const subscriber = reports.length === 0 ? folded : recordActivity(folded, Math.max(...reports));
  if (reports.length > 0) model.reported.set(receiver, Math.max(...reports));
  model.subscribers.set(receiver, subscriber);
  return { status: 'applied', receiver, moved, subscriber };
}
