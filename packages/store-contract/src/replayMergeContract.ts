/**
 * The contract of `replay` over persons stored apart (docs/storage.md, replay; docs/rules.md §2,
 * aliases): records a database stored before schema version 4 kept as separate persons, though
 * their events link them, are merged by a replay, so that afterwards the store equals delivering
 * every stored event fresh: one record named by its latest event, found by every id, its reported
 * activity kept, the at-risk rows and totals following. Needs the factory's `storeApart` seam (the
 * durable stores); the memory store never holds such persons.
 */
import fc from 'fast-check';
import { DEFAULT_CONFIG, compareIds, foldByIdentity, identityIdsOf, recordActivity, transactionOccurrenceOf, type HandledEvent, type StoreContext, type StoredRecord, type SubscriberStore } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { expectAtRiskPage } from './atRiskReference.js';
import { eventSpecArb } from './modelContract.js';
import { eventOf } from './storeCommands.js';
import { propertyParameters, withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { CUSTOMER_IDS, DAY_MS, T0, buildEvent, collect, listAll } from './storeFixtures.js';

const ctx: StoreContext = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };
const ANON = '$RCAnonymousID:ab';

/** Three persons as stored apart: the anonymous trial, the identified id's events naming it, a device naming the identified id. */
const anonymous = [buildEvent('INITIAL_PURCHASE', 'rm_e1', ANON, T0, { period_type: 'TRIAL', price: 0, expiration_at_ms: T0 + 7 * DAY_MS, aliases: [ANON], original_transaction_id: 'otx_1' })];
const identified = [
  buildEvent('RENEWAL', 'rm_e2', 'user_42', T0 + 7 * DAY_MS, { original_app_user_id: ANON, aliases: [ANON, 'user_42'], price: 9.99, expiration_at_ms: T0 + 37 * DAY_MS, original_transaction_id: 'otx_1' }),
  buildEvent('CANCELLATION', 'rm_e3', 'user_42', T0 + 20 * DAY_MS, { original_app_user_id: ANON, cancel_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 37 * DAY_MS, original_transaction_id: 'otx_1' }),
];
const device = [buildEvent('NON_RENEWING_PURCHASE', 'rm_e4', 'dev_7', T0 + 10 * DAY_MS, { original_app_user_id: 'dev_7', aliases: ['dev_7', 'user_42'], price: 4.99 })];
const other = [buildEvent('INITIAL_PURCHASE', 'rm_e5', 'zed', T0, { price: 120, expiration_at_ms: T0 + 365 * DAY_MS })];
const REPORTED = T0 + 15 * DAY_MS;

const storedEvents = async (store: SubscriberStore) => (await collect(store.records())).flatMap((r) => (r.kind === 'event' ? [r.event] : []));
const activityOf = async (store: SubscriberStore) =>
  (await collect(store.records())).flatMap((r: StoredRecord) => (r.kind === 'activity' ? [r] : [])).sort((a, b) => compareIds(a.customer_id, b.customer_id));

/** Registers the replay-merge test. */
export function describeReplayMergeContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const { storeApart } = factory;
  // A store that cannot hold persons apart (the memory store: its writes always group by identity,
  // and nothing of it outlives the process) has nothing for replay to merge: no test to run.
  if (storeApart === undefined) return;
  describe('replay merges persons stored apart (before schema version 4)', () => {
    it('merges them as delivering every stored event fresh would: named by the latest event, found by every id, rows and totals following', { timeout: options.timeoutMs }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents(other, ctx);
        await storeApart(store, [{ events: anonymous, reported: REPORTED }, { events: identified }, { events: device }]);
        expect(await store.count()).toBe(4);
        expect((await store.get('dev_7'))?.customer_id).toBe('dev_7');

        const progress: number[] = [];
        expect(await store.replay(ctx, (done) => progress.push(done))).toBe(2);
        expect(progress.at(-1)).toBe(2);
        const expected = recordActivity(foldByIdentity([...anonymous, ...identified, ...device]).get('user_42')!, REPORTED);
        expect(expected.customer_id).toBe('user_42');
        expect(await store.count()).toBe(2);
        for (const id of [ANON, 'user_42', 'dev_7']) expect(await store.get(id)).toEqual(expected);
        for (const query of [{ limit: 10, min_score: 0 }, { limit: 10, min_score: 0, sort: 'revenue' as const }]) {
          expectAtRiskPage(await store.atRisk(query, ctx), await listAll(store), ctx, query);
        }

        // The same as a store that received every stored event fresh, and the same activity.
        await expectSameAsFresh(factory, store, [[ANON, REPORTED]]);

        // A second replay finds nothing more to merge, and a new event of any id lands on the one record.
        expect(await store.replay(ctx)).toBe(2);
        const renewal = buildEvent('RENEWAL', 'rm_e6', 'dev_7', T0 + 37 * DAY_MS, { price: 9.99, expiration_at_ms: T0 + 67 * DAY_MS, original_transaction_id: 'otx_1' });
        expect((await store.applyEvent(renewal, ctx)).subscriber?.event_count).toBe(5);
        expect(await store.count()).toBe(2);
      }),
    );

    it('leaves, whatever persons were stored apart, what delivering every stored event fresh leaves', { timeout: options.timeoutMs }, async () => {
      await fc.assert(
        fc.asyncProperty(apartArb, ({ persons, reported }) =>
          withStore(factory, async (store) => {
            await storeApart(store, persons.map((events, i) => ({ events, ...(reported[i] === null || reported[i] === undefined ? {} : { reported: reported[i]! }) })));
            expect(await store.count()).toBe(persons.length);
            await store.replay(ctx);
            const activity = persons.flatMap((events, i): [string, number][] => (reported[i] == null ? [] : [[events[0]!.app_user_id, reported[i]!]]));
            await expectSameAsFresh(factory, store, activity);
          }),
        ),
        propertyParameters(options, Math.min(options.numRuns, 15)),
      );
    });
  });
}

/**
 * Persons as a database written before schema version 4 kept them: the events of each `app_user_id`
 * one person (ids unique, and transaction occurrences: the store dropped a later copy), whatever
 * other ids they name, some with reported activity.
 */
const apartArb: fc.Arbitrary<{ persons: HandledEvent[][]; reported: (number | null)[] }> = fc
  .record({
    specs: fc.uniqueArray(eventSpecArb, { minLength: 1, maxLength: 14, selector: (s) => s.id }),
    reported: fc.array(fc.option(fc.integer({ min: 0, max: 30 * DAY_MS }), { freq: 3 }), { maxLength: CUSTOMER_IDS.length }),
  })
  .map(({ specs, reported }) => {
    const byCustomer = new Map<string, HandledEvent[]>();
    const occurrences = new Set<string>();
    for (const spec of specs) {
      const event = eventOf(spec, T0 + 30 * DAY_MS);
      const occurrence = transactionOccurrenceOf(event);
      if (occurrence !== undefined && occurrences.has(occurrence)) continue;
      if (occurrence !== undefined) occurrences.add(occurrence);
      byCustomer.set(event.app_user_id, [...(byCustomer.get(event.app_user_id) ?? []), event]);
    }
    return { persons: [...byCustomer.values()], reported: reported.map((at) => (at === null ? null : T0 + at)) };
  });

/**
 * Asserts that `store` holds what a fresh store of the factory holds after receiving every event
 * `store` stored (in its order) and the given reported activity: records, rows and totals,
 * which record each id finds, timelines and activity.
 */
async function expectSameAsFresh(factory: StoreFactory, store: SubscriberStore, activity: readonly (readonly [string, number])[]): Promise<void> {
  const events = await storedEvents(store);
  await withStore(factory, async (fresh) => {
    await fresh.applyEvents(events, ctx);
    for (const [id, at] of activity) await fresh.recordActivity(id, at, ctx);
    const subscribers = await listAll(fresh);
    expect(await listAll(store)).toEqual(subscribers);
    for (const query of [{ limit: 100, min_score: 0 }, { limit: 100, min_score: 0, sort: 'revenue' as const }]) {
      expect(await store.atRisk(query, ctx)).toEqual(await fresh.atRisk(query, ctx));
    }
    for (const id of new Set(events.flatMap(identityIdsOf))) expect({ id, found: (await store.get(id))?.customer_id }).toEqual({ id, found: (await fresh.get(id))?.customer_id });
    for (const { customer_id } of subscribers) expect(await store.eventsOf(customer_id, { limit: 100 })).toEqual(await fresh.eventsOf(customer_id, { limit: 100 }));
    expect(await activityOf(store)).toEqual(await activityOf(fresh));
  });
}
