/**
 * The contract of the bulk import (`beginImport`, docs/storage.md): a session appends events and
 * folds each person it touched once, at `finish`, and the store then holds exactly what
 * `applyEvents` of the same batches leaves: every record, at-risk row, identity (which record each
 * id finds) and stored event, whatever came before (events, reported activity, transfers),
 * whatever the batches hold (repeated ids and transactions, ids linking persons) and whatever
 * webhooks arrive between them. A session that
 * never finishes leaves its persons to the next session's `finish`.
 */
import fc from 'fast-check';
import { DEFAULT_CONFIG, compareIds, identityIdsOf, type HandledEvent, type StoreContext, type StoredRecord, type SubscriberStore } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { customerArb, eventSpecArb } from './modelContract.js';
import { eventOf, type EventSpec } from './storeCommands.js';
import { propertyParameters, withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { CUSTOMER_IDS, DAY_MS, T0, buildEvent, collect, listAll } from './storeFixtures.js';
import { transferEvent } from './transferContract.js';

/** When the history before the import happened, and when the import runs (rows assessed then). */
const BEFORE: StoreContext = { now: T0 + 30 * DAY_MS, config: DEFAULT_CONFIG };
const IMPORT: StoreContext = { now: T0 + 45 * DAY_MS, config: DEFAULT_CONFIG };

/** What both stores go through: the same history, then the same batches (by session into one, by applyEvents into the other). */
interface Scenario {
  before: EventSpec[];
  activity: [string, number][];
  transfer: { from: string[]; to: string[] } | null;
  batches: EventSpec[][];
  /** A webhook delivered after each batch (`applyEvent`), or none: while the session runs, on the other store between its batches. */
  live: (EventSpec | null)[];
  /** Batches appended by a first session that never finishes (a process that died); a second one appends every batch again and finishes. */
  abandonedAfter: number | null;
}

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  before: fc.array(eventSpecArb, { maxLength: 10 }),
  activity: fc.array(fc.tuple(customerArb, fc.integer({ min: -20 * DAY_MS, max: 0 })), { maxLength: 3 }),
  transfer: fc.option(fc.record({ from: fc.uniqueArray(customerArb, { minLength: 1, maxLength: 2 }), to: fc.uniqueArray(customerArb, { maxLength: 1 }) }), { freq: 4 }),
  batches: fc.array(fc.array(eventSpecArb, { maxLength: 8 }), { minLength: 1, maxLength: 4 }),
  live: fc.array(fc.option(eventSpecArb, { freq: 2 }), { maxLength: 4 }),
  abandonedAfter: fc.option(fc.nat(3), { freq: 3 }),
});

/** Every id a store may be asked about: the pool, and every id the events name. */
const idsOf = (events: readonly HandledEvent[]) => [...new Set([...CUSTOMER_IDS, ...events.flatMap(identityIdsOf)])];

/** Records with the activity sorted by customer: only the events' order is part of the contract. */
const normalized = (records: StoredRecord[]): StoredRecord[] => [
  ...records.filter((r) => r.kind === 'event'),
  ...records.flatMap((r) => (r.kind === 'activity' ? [r] : [])).sort((a, b) => compareIds(a.customer_id, b.customer_id)),
];

/** Asserts that two stores hold the same records, rows, identities and events (the export/import tests use it too). */
export async function expectSameStores(actual: SubscriberStore, expected: SubscriberStore, ids: readonly string[], ctx: StoreContext): Promise<void> {
  const subscribers = await listAll(expected);
  expect(await listAll(actual)).toEqual(subscribers);
  expect(await actual.count()).toBe(await expected.count());
  expect(await actual.eventCount()).toBe(await expected.eventCount());
  // The rows: every field of every entry (assessed_at and rescore_at included), and the totals.
  for (const query of [{ limit: 500, min_score: 0 }, { limit: 500, min_score: 0, sort: 'revenue' as const }]) {
    expect(await actual.atRisk(query, ctx)).toEqual(await expected.atRisk(query, ctx));
  }
  // The identities: which record each id finds.
  for (const id of ids) expect({ id, found: (await actual.get(id))?.customer_id }).toEqual({ id, found: (await expected.get(id))?.customer_id });
  // The events, in storage order with the activity, and under which person each is kept.
  expect(normalized(await collect(actual.records()))).toEqual(normalized(await collect(expected.records())));
  for (const { customer_id } of subscribers) expect(await actual.eventsOf(customer_id, { limit: 500 })).toEqual(await expected.eventsOf(customer_id, { limit: 500 }));
}

/** Gives both stores the scenario's history: events, reported activity, a transfer. */
async function prepare(store: SubscriberStore, scenario: Scenario): Promise<void> {
  await store.applyEvents(scenario.before.map((s) => eventOf(s, BEFORE.now)), BEFORE);
  for (const [customer, offset] of scenario.activity) await store.recordActivity(customer, BEFORE.now + offset, BEFORE);
  if (scenario.transfer !== null) await store.applyTransfer(transferEvent('imp_tr', scenario.transfer.from, scenario.transfer.to, BEFORE.now), BEFORE);
}

/** Runs `body` with two empty stores of the factory (emptied by `reset` when it has one, else opened and cleaned up). */
function withTwoStores(factory: StoreFactory): (body: (a: SubscriberStore, b: SubscriberStore) => Promise<void>) => Promise<void> {
  return (body) => withStore(factory, (a) => withStore(factory, (b) => body(a, b)));
}

/** Registers the import session tests. */
export function describeImportContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const timeout = options.timeoutMs;

  describe('beginImport: a bulk import folds each person once', () => {
    it('leaves exactly what applyEvents of the same batches leaves (records, rows, identities, events), whatever came before or arrives meanwhile', { timeout }, async () => {
      const property = (stores: (run: (a: SubscriberStore, b: SubscriberStore) => Promise<void>) => Promise<void>) =>
        fc.asyncProperty(scenarioArb, (scenario) =>
          stores(async (bulk, reference) => {
            await prepare(bulk, scenario);
            await prepare(reference, scenario);
            const batches = scenario.batches.map((specs) => specs.map((s) => eventOf(s, IMPORT.now)));
            const live = scenario.live.map((spec) => (spec === null ? null : eventOf(spec, IMPORT.now)));
            const expected: string[][] = [];
            for (const [i, batch] of batches.entries()) {
              expected.push(await reference.applyEvents(batch, IMPORT));
              const webhook = live[i];
              if (webhook != null) await reference.applyEvent(webhook, IMPORT);
            }
            // Each webhook arrives after its batch was first appended (by the session that stopped, for the batches it appended).
            const cut = scenario.abandonedAfter ?? 0;
            if (scenario.abandonedAfter !== null) {
              const stopped = await bulk.beginImport(IMPORT);
              for (const [i, batch] of batches.slice(0, cut).entries()) {
                await stopped.append(batch);
                const webhook = live[i];
                if (webhook != null) await bulk.applyEvent(webhook, IMPORT);
              }
            }
            const session = await bulk.beginImport(IMPORT);
            const statuses: string[][] = [];
            for (const [i, batch] of batches.entries()) {
              statuses.push(await session.append(batch));
              const webhook = live[i];
              if (webhook != null && i >= cut) await bulk.applyEvent(webhook, IMPORT);
            }
            // Appending again what an abandoned session stored finds duplicates; otherwise the same answers.
            if (scenario.abandonedAfter === null) expect(statuses).toEqual(expected);
            await session.finish(IMPORT);
            const all = [...scenario.before.map((s) => eventOf(s, BEFORE.now)), ...batches.flat(), ...live.flatMap((e) => (e === null ? [] : [e]))];
            await expectSameStores(bulk, reference, idsOf(all), IMPORT);
          }),
        );
      const { reset } = factory;
      if (reset === undefined) {
        await fc.assert(property(withTwoStores(factory)), propertyParameters(options));
        return;
      }
      await withTwoStores(factory)(async (a, b) => {
        await fc.assert(
          property(async (run) => {
            await reset(a);
            await reset(b);
            await run(a, b);
          }),
          propertyParameters(options),
        );
      });
    });

    it('follows a person a webhook merged into another between two batches', { timeout }, () =>
      withTwoStores(factory)(async (bulk, reference) => {
        const before = buildEvent('INITIAL_PURCHASE', 'imp_m0', 'zed', T0, { price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS });
        const first = [buildEvent('NON_RENEWING_PURCHASE', 'imp_m1', 'anon', T0 + DAY_MS, { price: 4.99 })];
        // The webhook names both ids: one person from then on.
        const webhook = buildEvent('RENEWAL', 'imp_m2', 'zed', T0 + 2 * DAY_MS, { aliases: ['anon', 'zed'], price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS });
        const second = [buildEvent('NON_RENEWING_PURCHASE', 'imp_m3', 'anon', T0 + 3 * DAY_MS, { price: 1.99 })];
        for (const store of [bulk, reference]) await store.applyEvent(before, IMPORT);
        await reference.applyEvents(first, IMPORT);
        await reference.applyEvent(webhook, IMPORT);
        await reference.applyEvents(second, IMPORT);
        const session = await bulk.beginImport(IMPORT);
        await session.append(first);
        await bulk.applyEvent(webhook, IMPORT);
        await session.append(second);
        await session.finish(IMPORT);
        // One person, named by its latest event since (the second batch's).
        expect(await reference.count()).toBe(1);
        expect((await reference.get('zed'))?.customer_id).toBe('anon');
        await expectSameStores(bulk, reference, ['anon', 'zed'], IMPORT);
      }),
    );

    it('is completed by the next session when one never finished: importing the file again folds what it stored', { timeout }, () =>
      withTwoStores(factory)(async (bulk, reference) => {
        const file = [
          buildEvent('INITIAL_PURCHASE', 'imp_e1', '$RCAnonymousID:aa', T0, { period_type: 'TRIAL', price: 0, expiration_at_ms: T0 + 7 * DAY_MS, aliases: ['user_7'] }),
          buildEvent('RENEWAL', 'imp_e2', 'user_7', T0 + 7 * DAY_MS, { original_app_user_id: '$RCAnonymousID:aa', price: 9.99, expiration_at_ms: T0 + 37 * DAY_MS }),
          buildEvent('INITIAL_PURCHASE', 'imp_e3', 'zed', T0, { price: 120, expiration_at_ms: T0 + 365 * DAY_MS }),
        ];
        await reference.applyEvents(file, IMPORT);
        const died = await bulk.beginImport(IMPORT);
        expect(await died.append(file.slice(0, 2))).toEqual(['applied', 'applied']);
        const again = await bulk.beginImport(IMPORT);
        expect(await again.append(file)).toEqual(['duplicate', 'duplicate', 'applied']);
        expect(await again.finish(IMPORT)).toBe(2);
        await expectSameStores(bulk, reference, idsOf(file), IMPORT);
        // Nothing is left to fold.
        expect(await (await bulk.beginImport(IMPORT)).finish(IMPORT)).toBe(0);
      }),
    );
  });
}
