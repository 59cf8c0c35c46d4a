/**
 * The deliberately simple model a store is checked against: a Map of subscribers folded with the
 * core's reducers, the set of applied event ids, the applied events in order, the latest reported
 * activity per customer, the clock and the configuration. At-risk answers come from the core's
 * full scan, `selectAtRisk`, over the model's subscribers.
 */
import {
  applyEvent,
  recordActivity,
  type HandledEvent,
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
  events: [],
  reported: new Map(),
});

/** The context a store call is made with. */
export const contextOf = (model: StoreModel): StoreContext => ({ now: model.now, config: model.config });

/** Applies one delivered event to the model; returns what the store must answer. */
export function applyToModel(model: StoreModel, event: HandledEvent): 'applied' | 'duplicate' {
  if (model.ids.has(event.id)) return 'duplicate';
  model.ids.add(event.id);
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
