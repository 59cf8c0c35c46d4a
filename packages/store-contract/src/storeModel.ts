/**
 * The deliberately simple model a store is checked against: a Map of subscribers, one per person
 * (the union-find of the ids the events name, `groupByIdentity`), each group folded with the core's reducer, the set of applied event ids, the applied events in order, the latest reported
 * activity per customer, the subscriptions transfers moved (a later event of one is re-keyed to
 * its receiver before anything else), the clock and the configuration. At-risk answers come from the core's
 * full scan, `selectAtRisk`, over the model's subscribers.
 */
import {
  applyEvent,
  groupByIdentity,
  identityIdsOf,
  movedSubscriptionOf,
  occurrenceKeyOf,
  reKeyToReceiver,
  recordActivity,
  routeMovedSubscription,
  transactionOccurrenceOf,
  transferOf,
  type HandledEvent,
  type OccurrenceHolder,
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
  /** Latest reported activity of each known person, by its key. */
  readonly reported: Map<string, number>;
  /** Every id the stored events name, to its person's key (`groupByIdentity`). */
  readonly personOf: Map<string, string>;
  /** Each subscription (`original_transaction_id`) a transfer moved, to the receiving id of the latest one. */
  readonly moved: Map<string, string>;
  /** Who each moved subscription was moved from (its events' `app_user_id` before the move): late events come under these ids. */
  readonly movedFrom: { customer: string; subscription: string }[];
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
  personOf: new Map(),
  moved: new Map(),
  movedFrom: [],
});

/** The context a store call is made with. */
export const contextOf = (model: StoreModel): StoreContext => ({ now: model.now, config: model.config });

/**
 * Folds the model again from its events: one subscriber per person (`groupByIdentity`: events
 * naming a common id, keyed by the id of the latest event), with the latest activity reported
 * under any of the person's ids. Called after every change, so a merge or a new key moves the
 * record and its reported activity as the stores do.
 */
function refold(model: StoreModel): void {
  model.subscribers.clear();
  model.personOf.clear();
  const reported = new Map<string, number>();
  for (const [key, members] of groupByIdentity(model.events)) {
    const ids = new Set(members.flatMap(identityIdsOf));
    let subscriber: Subscriber | undefined;
    for (const event of members) subscriber = applyEvent(subscriber, event);
    const reports = [...ids].flatMap((id) => model.reported.get(id) ?? []);
    if (reports.length > 0) reported.set(key, Math.max(...reports));
    model.subscribers.set(key, reports.length === 0 ? subscriber! : recordActivity(subscriber!, Math.max(...reports)));
    for (const id of ids) model.personOf.set(id, key);
  }
  model.reported.clear();
  for (const [key, at] of reported) model.reported.set(key, at);
}

/** The model's subscriber that `id` names (any id of the person), or undefined. */
export function subscriberOf(model: StoreModel, id: string): Subscriber | undefined {
  const key = model.personOf.get(id);
  return key === undefined ? undefined : model.subscribers.get(key);
}

/** The event as the model stores it: re-keyed to the receiver of its subscription when a transfer moved that (`routeMovedSubscription`). */
export function routeInModel(model: StoreModel, event: HandledEvent): HandledEvent {
  return routeMovedSubscription(event, (subscription) => model.moved.get(subscription));
}

/** Applies one delivered event to the model (routed first, `routeInModel`); returns what the store must answer. */
export function applyToModel(model: StoreModel, delivered: HandledEvent): 'applied' | 'duplicate' {
  const event = routeInModel(model, delivered);
  if (model.ids.has(event.id) || model.occurrences.has(occurrenceKeyOf(event))) return 'duplicate';
  model.ids.add(event.id);
  model.occurrences.add(occurrenceKeyOf(event));
  model.events.push(event);
  refold(model);
  return 'applied';
}

/**
 * Given a delivered event the model answers `duplicate` for, returns who holds its transaction
 * occurrence when that is a person none of its ids names (`ApplyOutcome.heldBy`), else undefined:
 * an event whose id is stored is a redelivery, quiet. Reads the model only.
 */
export function heldByInModel(model: StoreModel, delivered: HandledEvent): OccurrenceHolder | undefined {
  const event = routeInModel(model, delivered);
  const key = transactionOccurrenceOf(event);
  if (model.ids.has(event.id) || key === undefined || !model.occurrences.has(key)) return undefined;
  const held = model.events.find((e) => transactionOccurrenceOf(e) === key)!;
  const customer = model.personOf.get(held.app_user_id)!;
  return identityIdsOf(event).some((id) => model.personOf.get(id) === customer) ? undefined : { key, customer };
}

/** Records reported activity in the model; undefined (and nothing kept) for an unknown customer. */
export function recordActivityInModel(model: StoreModel, customerId: string, at: number): Subscriber | undefined {
  const key = model.personOf.get(customerId);
  if (key === undefined) return undefined;
  model.reported.set(key, Math.max(model.reported.get(key) ?? at, at));
  refold(model);
  return model.subscribers.get(key);
}

/**
 * Applies a TRANSFER to the model (docs/rules.md §2): every event of each sender's person (a person
 * other than the receiver's) is re-keyed to the receiver where it stands in storage order
 * (`reKeyToReceiver`) and its subscription routes to the receiver from then on (the latest transfer
 * wins), the senders leave with their ids, and the receiver's person is the fold of its events with
 * the latest activity reported for any of them; returns what the store must answer.
 */
export function transferInModel(model: StoreModel, event: TransferEvent): TransferOutcome {
  if (model.transfers.has(event.id)) return { status: 'duplicate' };
  model.transfers.add(event.id);
  const { from, to } = transferOf(event);
  const receiver = to[0];
  if (receiver === undefined) return { status: 'applied', receiver, moved: 0, subscriber: undefined };
  const target = model.personOf.get(receiver);
  const senders = new Set(from.flatMap((id) => model.personOf.get(id) ?? []).filter((key) => key !== target));
  if (senders.size === 0) return { status: 'applied', receiver, moved: 0, subscriber: subscriberOf(model, receiver) };
  const moving = new Set<string>();
  for (const [key, members] of groupByIdentity(model.events)) if (senders.has(key)) for (const e of members) moving.add(e.id);
  let moved = 0;
  model.events.forEach((e, i) => {
    if (!moving.has(e.id)) return;
    const subscription = movedSubscriptionOf(e);
    if (subscription !== undefined) {
      model.moved.set(subscription, receiver);
      model.movedFrom.push({ customer: e.app_user_id, subscription });
    }
    model.events[i] = reKeyToReceiver(e, receiver);
    moved++;
  });
  const reports = [target ?? receiver, ...senders].flatMap((id) => model.reported.get(id) ?? []);
  for (const id of senders) model.reported.delete(id);
  if (reports.length > 0) model.reported.set(receiver, Math.max(...reports));
  refold(model);
  return { status: 'applied', receiver, moved, subscriber: subscriberOf(model, receiver) };
}
