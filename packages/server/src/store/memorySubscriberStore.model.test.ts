// Model-based test of the memory store: a deliberately simpler model keeps every applied event and
// folds them with the core's foldEvents; after any sequence of commands the store must agree with it.
import fc from 'fast-check';
import { foldEvents, HANDLED_EVENT_TYPES, type HandledEvent, type Subscriber } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { createMemorySubscriberStore, type MemorySubscriberStore } from './memorySubscriberStore.js';

const T0 = 1_762_000_000_000;
const HOUR = 3_600_000;

interface Model {
  events: HandledEvent[];
  ids: Set<string>;
  /** Activity reports accepted (the customer existed then), per customer. */
  activity: Map<string, number>;
}

/** What the model says a customer's subscriber is. */
function expected(model: Model, customer: string): Subscriber | undefined {
  const folded = foldEvents(model.events.filter((e) => e.app_user_id === customer));
  const reported = model.activity.get(customer);
  if (folded === undefined || reported === undefined) return folded;
  return folded.last_activity_at !== null && folded.last_activity_at >= reported ? folded : { ...folded, last_activity_at: reported };
}

const customers = ['alice', 'bob', 'carol'] as const;

const eventArb: fc.Arbitrary<HandledEvent> = fc
  .record({
    type: fc.constantFrom(...HANDLED_EVENT_TYPES),
    id: fc.integer({ min: 1, max: 40 }).map((n) => `evt_${n}`), // a small pool: repeats are common
    app_user_id: fc.constantFrom(...customers),
    at: fc.integer({ min: 0, max: 200 }).map((n) => T0 + n * HOUR),
    period_type: fc.constantFrom('TRIAL', 'NORMAL'),
    cancel_reason: fc.constantFrom('UNSUBSCRIBE', 'BILLING_ERROR'),
  })
  .map(({ at, ...rest }) => ({ ...rest, event_timestamp_ms: at, product_id: 'pro_monthly' }) as HandledEvent);

class ApplyCommand implements fc.AsyncCommand<Model, MemorySubscriberStore> {
  constructor(readonly event: HandledEvent) {}
  check = () => true;
  async run(model: Model, store: MemorySubscriberStore): Promise<void> {
    const outcome = await store.applyEvent(this.event);
    const duplicate = model.ids.has(this.event.id);
    expect(outcome.status).toBe(duplicate ? 'duplicate' : 'applied');
    if (!duplicate) {
      model.ids.add(this.event.id);
      model.events.push(this.event);
    }
    expect(await store.get(this.event.app_user_id)).toEqual(expected(model, this.event.app_user_id));
  }
  toString = () => `apply(${this.event.type} ${this.event.id} ${this.event.app_user_id})`;
}

class ActivityCommand implements fc.AsyncCommand<Model, MemorySubscriberStore> {
  constructor(
    readonly customer: string,
    readonly at: number,
  ) {}
  check = () => true;
  async run(model: Model, store: MemorySubscriberStore): Promise<void> {
    const known = model.events.some((e) => e.app_user_id === this.customer);
    const result = await store.recordActivity(this.customer, this.at);
    if (!known) {
      expect(result).toBeUndefined();
      return;
    }
    model.activity.set(this.customer, Math.max(model.activity.get(this.customer) ?? 0, this.at));
    expect(result).toEqual(expected(model, this.customer));
  }
  toString = () => `activity(${this.customer} @${this.at})`;
}

class ListCommand implements fc.AsyncCommand<Model, MemorySubscriberStore> {
  check = () => true;
  async run(model: Model, store: MemorySubscriberStore): Promise<void> {
    const listed: Subscriber[] = [];
    for await (const s of store.list()) listed.push(s);
    const known = customers.filter((c) => model.events.some((e) => e.app_user_id === c));
    expect(listed).toEqual(known.map((c) => expected(model, c)));
    expect(await store.count()).toBe(known.length);
    expect(store.seenEventCount()).toBe(model.ids.size);
  }
  toString = () => 'list()';
}

describe('createMemorySubscriberStore (model-based)', () => {
  it('agrees with folding the distinct applied events, whatever the sequence of commands', async () => {
    const commands = [
      eventArb.map((e) => new ApplyCommand(e)),
      fc.tuple(fc.constantFrom(...customers), fc.integer({ min: 0, max: 200 })).map(([c, n]) => new ActivityCommand(c, T0 + n * HOUR)),
      fc.constant(new ListCommand()),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 60 }), async (cmds) => {
        const model: Model = { events: [], ids: new Set(), activity: new Map() };
        await fc.asyncModelRun(() => ({ model, real: createMemorySubscriberStore() }), cmds);
      }),
      { numRuns: 150 },
    );
  });
});
