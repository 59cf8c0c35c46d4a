/**
 * The commands of the model-based test: each one calls the store, applies the same step to the
 * model and checks the store's answer against the model's.
 */
import type fc from 'fast-check';
import { compareIds, type AtRiskQuery, type HandledEvent, type HandledEventType, type StoredRecord, type SubscriberStore } from '@tenure/core';
import { expect } from 'vitest';
import { expectAtRiskPage } from './atRiskReference.js';
import { applyToModel, contextOf, heldByInModel, recordActivityInModel, routeInModel, subscriberOf, type StoreModel } from './storeModel.js';
import { buildEvent, byCustomerId, collect, listAll, type EventFields } from './storeFixtures.js';

type StoreCommand = fc.AsyncCommand<StoreModel, SubscriberStore>;

/** An event to deliver, its time given relative to the clock at delivery (so most events are in the recent past). */
export interface EventSpec {
  type: HandledEventType;
  id: string;
  customer: string;
  offset: number;
  fields: EventFields;
}

/**
 * Given a spec and the clock, returns the event it describes (purchase and expiry times follow the
 * event time), in the billing service's format. Pure.
 *
 * @example
 * const event = eventOf(spec, T0 + 3 * DAY_MS);
 */
export function eventOf(spec: EventSpec, now: number): HandledEvent {
  const at = Math.max(0, now + spec.offset);
  const { expires_in, ...fields } = spec.fields;
  const times = typeof expires_in === 'number' ? { purchased_at_ms: at, expiration_at_ms: at + expires_in } : {};
  return buildEvent(spec.type, spec.id, spec.customer, at, { ...times, ...fields });
}

const describeSpec = (s: EventSpec) => `${s.type} ${JSON.stringify(s.id)} ${JSON.stringify(s.customer)} ${s.offset >= 0 ? '+' : ''}${s.offset}ms ${JSON.stringify(s.fields)}`;

/** Checks the store's view of one customer against the model. */
async function expectCustomer(model: StoreModel, store: SubscriberStore, customerId: string): Promise<void> {
  expect(await store.get(customerId)).toEqual(subscriberOf(model, customerId));
}

/** Delivers one event. */
export class ApplyEventCommand implements StoreCommand {
  constructor(readonly spec: EventSpec) {}
  check = () => true;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    const event = eventOf(this.spec, model.now);
    // An event of a transferred subscription lands on its receiver (docs/rules.md §2, Transfers).
    const { app_user_id: lands } = routeInModel(model, event);
    const heldBy = heldByInModel(model, event); // before the model changes (only a duplicate has one)
    const status = applyToModel(model, event);
    const outcome = await store.applyEvent(event, contextOf(model));
    expect(outcome).toEqual(status === 'duplicate' && heldBy !== undefined ? { status, subscriber: subscriberOf(model, lands), heldBy } : { status, subscriber: subscriberOf(model, lands) });
    await expectCustomer(model, store, lands);
    await expectCustomer(model, store, event.app_user_id);
  }
  toString = () => `apply(${describeSpec(this.spec)})`;
}

/**
 * Delivers a new event of a subscription a transfer moved, under the id it was moved from (a late
 * renewal or cancellation still naming the sender): it must land where the model routes it.
 */
export class LateEventCommand implements StoreCommand {
  constructor(
    readonly spec: EventSpec,
    readonly pick: number,
  ) {}
  check = (model: Readonly<StoreModel>) => model.movedFrom.length > 0;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    const { customer, subscription } = model.movedFrom[this.pick % model.movedFrom.length]!;
    const spec = { ...this.spec, customer, fields: { ...this.spec.fields, original_transaction_id: subscription } };
    await new ApplyEventCommand(spec).run(model, store);
  }
  toString = () => `late(#${this.pick} ${describeSpec(this.spec)})`;
}

/** Delivers again an event already applied (the billing service's retry keeps the id and the body). */
export class RedeliverCommand implements StoreCommand {
  constructor(readonly pick: number) {}
  check = (model: Readonly<StoreModel>) => model.events.length > 0;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    const event = model.events[this.pick % model.events.length]!;
    const outcome = await store.applyEvent(event, contextOf(model));
    // Routed like any delivery: a duplicate names the record its routed ids find.
    expect(outcome).toEqual({ status: 'duplicate', subscriber: subscriberOf(model, routeInModel(model, event).app_user_id) });
  }
  toString = () => `redeliver(#${this.pick})`;
}

/** Delivers a batch (an import), optionally repeating its first event at the end and redelivering a stored one. */
export class ApplyBatchCommand implements StoreCommand {
  constructor(
    readonly specs: readonly EventSpec[],
    readonly repeatFirst: boolean,
    readonly redeliver: number | null,
  ) {}
  check = () => true;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    const events = this.specs.map((s) => eventOf(s, model.now));
    if (this.repeatFirst && events[0] !== undefined) events.push(events[0]);
    if (this.redeliver !== null && model.events.length > 0) events.splice(events.length >> 1, 0, model.events[this.redeliver % model.events.length]!);
    const statuses = events.map((e) => applyToModel(model, e));
    expect(await store.applyEvents(events, contextOf(model))).toEqual(statuses);
    for (const id of new Set(events.map((e) => e.app_user_id))) await expectCustomer(model, store, id);
  }
  toString = () => `batch([${this.specs.map(describeSpec).join(', ')}], repeatFirst=${this.repeatFirst}, redeliver=${this.redeliver})`;
}

/** Reports app activity at `offset` from the clock. */
export class RecordActivityCommand implements StoreCommand {
  constructor(
    readonly customer: string,
    readonly offset: number,
  ) {}
  check = () => true;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    const at = Math.max(0, model.now + this.offset);
    const expected = recordActivityInModel(model, this.customer, at);
    expect(await store.recordActivity(this.customer, at, contextOf(model))).toEqual(expected);
    await expectCustomer(model, store, this.customer);
  }
  toString = () => `activity(${JSON.stringify(this.customer)} ${this.offset}ms)`;
}

/** Moves the clock forward (never back). */
export class AdvanceClockCommand implements StoreCommand {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: StoreModel): Promise<void> {
    model.now += this.ms;
  }
  toString = () => `advance(${this.ms}ms)`;
}

/** Switches the configuration the next calls are made with. */
export class SwitchConfigCommand implements StoreCommand {
  constructor(readonly pick: number) {}
  check = (model: Readonly<StoreModel>) => model.configs.length > 1;
  async run(model: StoreModel): Promise<void> {
    model.config = model.configs[this.pick % model.configs.length]!;
  }
  toString = () => `config(#${this.pick})`;
}

/** Reads up to `pages` pages of an at-risk query, following `next`, each checked against `selectAtRisk`. */
export class AtRiskCommand implements StoreCommand {
  constructor(
    readonly query: AtRiskQuery,
    readonly pages: number,
  ) {}
  check = () => true;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    let query = this.query;
    for (let i = 0; i < this.pages; i++) {
      const page = await store.atRisk(query, contextOf(model));
      expectAtRiskPage(page, model.subscribers.values(), contextOf(model), query);
      if (page.next === null) return;
      query = { ...query, after: page.next } as AtRiskQuery;
    }
  }
  toString = () => `atRisk(${JSON.stringify(this.query)}, pages=${this.pages})`;
}

/** Runs the background sweep: at most `limit` rows, and none left due once it refreshed fewer. */
export class RefreshDueCommand implements StoreCommand {
  constructor(readonly limit: number) {}
  check = () => true;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    const refreshed = await store.refreshDue(contextOf(model), this.limit);
    expect(refreshed).toBeGreaterThanOrEqual(0);
    expect(refreshed).toBeLessThanOrEqual(this.limit);
    if (refreshed < this.limit) expect(await store.refreshDue(contextOf(model), this.limit)).toBe(0);
  }
  toString = () => `refreshDue(${this.limit})`;
}

/** Rebuilds every projection from the stored events and activity. */
export class ReplayCommand implements StoreCommand {
  check = () => true;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    let last: number | null = null;
    const rebuilt = await store.replay(contextOf(model), (done) => {
      if (last !== null) expect(done).toBeGreaterThanOrEqual(last);
      last = done;
    });
    expect(rebuilt).toBe(model.subscribers.size);
    if (rebuilt > 0) expect(last).toBe(rebuilt);
  }
  toString = () => 'replay()';
}

/** Reads one customer. */
export class GetCommand implements StoreCommand {
  constructor(readonly customer: string) {}
  check = () => true;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    await expectCustomer(model, store, this.customer);
  }
  toString = () => `get(${JSON.stringify(this.customer)})`;
}

/** Reads everything: list, counts and records. */
export class ReadAllCommand implements StoreCommand {
  check = () => true;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    expect(await listAll(store)).toEqual(byCustomerId(model.subscribers.values()));
    expect(await store.count()).toBe(model.subscribers.size);
    expect(await store.eventCount()).toBe(model.events.length);
    const records = await collect(store.records());
    const activity = [...model.reported]
      .sort(([a], [b]) => compareIds(a, b))
      .map(([customer_id, at]): StoredRecord => ({ kind: 'activity', customer_id, at }));
    const events = records.slice(0, model.events.length);
    const rest = records.slice(model.events.length).sort((a, b) => compareIds(idOf(a), idOf(b)));
    expect(events).toEqual(model.events.map((event): StoredRecord => ({ kind: 'event', event })));
    expect(rest).toEqual(activity);
  }
  toString = () => 'readAll()';
}

const idOf = (r: StoredRecord) => (r.kind === 'activity' ? r.customer_id : r.event.app_user_id);
