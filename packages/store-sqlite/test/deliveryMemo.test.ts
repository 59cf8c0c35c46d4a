// The deliveries' memo (internal/deliveryMemo.ts): what a connection remembers between its group
// commits must never outlive a write it did not make itself on the webhook path.
import { DEFAULT_CONFIG, type HandledEvent } from '@tenure/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { remember } from '../src/internal/deliveryMemo.js';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { DAY, T0, customerArb, event, eventArb, tempDbPath } from './helpers.js';

const ctx = { now: T0, config: DEFAULT_CONFIG };
const open: SqliteStore[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});
const openStore = async (path: string) => {
  const store = await openSqliteStore({ path });
  open.push(store);
  return store;
};
const everyone = async (store: SqliteStore) => {
  const all = [];
  for await (const subscriber of store.list()) all.push(subscriber);
  return all;
};

/** One step: a webhook through one of two connections, or another writer of the first connection. */
type Step =
  | { kind: 'webhook'; via: 0 | 1; event: HandledEvent }
  | { kind: 'activity'; customer: string; at: number }
  | { kind: 'batch'; events: HandledEvent[] };

/** Some events name a second id (an alias), so persons merge, and some arrive on the other connection. */
const linkedEventArb: fc.Arbitrary<HandledEvent> = fc
  .tuple(eventArb, fc.option(customerArb, { nil: undefined }))
  .map(([e, alias]) => (alias === undefined || alias === e.app_user_id ? e : { ...e, aliases: [e.app_user_id, alias] }));
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('webhook' as const), via: fc.constantFrom(0 as const, 1 as const), event: linkedEventArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('activity' as const), customer: customerArb, at: fc.integer({ min: 0, max: 40 }).map((n) => T0 + n * DAY) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('batch' as const), events: fc.array(linkedEventArb, { maxLength: 3 }) }) },
);

describe('the deliveries memo', () => {
  it('two connections and other writers of one leave the file exactly as one connection doing it all', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 25 }), async (steps) => {
        const shared = tempDbPath();
        const connections = [await openStore(shared), await openStore(shared)] as const;
        const alone = await openStore(tempDbPath());
        for (const step of steps) {
          if (step.kind === 'webhook') {
            const outcome = await connections[step.via].applyEvent(step.event, ctx);
            expect(outcome).toEqual(await alone.applyEvent(step.event, ctx));
          } else if (step.kind === 'activity') {
            expect(await connections[0].recordActivity(step.customer, step.at, ctx)).toEqual(await alone.recordActivity(step.customer, step.at, ctx));
          } else {
            expect(await connections[0].applyEvents(step.events, ctx)).toEqual(await alone.applyEvents(step.events, ctx));
          }
        }
        expect(await everyone(connections[1])).toEqual(await everyone(alone));
        for (const store of open.splice(0)) await store.close();
      }),
      { numRuns: 40 },
    );
  });

  it('finds the person another connection merged an id into', async () => {
    const path = tempDbPath();
    const [a, b, alone] = [await openStore(path), await openStore(path), await openStore(tempDbPath())];
    const steps: [SqliteStore, HandledEvent][] = [
      [a, event('INITIAL_PURCHASE', 'e1', 'anon', T0, { period_type: 'NORMAL' })],
      [b, event('RENEWAL', 'e2', 'u1', T0 + DAY, { aliases: ['anon', 'u1'] })],
      [a, event('BILLING_ISSUE', 'e3', 'anon', T0 + 2 * DAY)],
    ];
    for (const [via, e] of steps) expect(await via.applyEvent(e, ctx)).toEqual(await alone.applyEvent(e, ctx));
    expect(await everyone(a)).toEqual(await everyone(alone));
    expect(await a.count()).toBe(1);
  });

  it('remembers at most its limit, dropping the entry written longest ago', () => {
    const map = new Map<string, number>();
    for (const [key, value] of [['a', 1], ['b', 2], ['c', 3], ['a', 4], ['d', 5]] as const) remember(map, key, value, 3);
    expect([...map]).toEqual([['c', 3], ['a', 4], ['d', 5]]);
  });
});
