/**
 * The contract of operating the data: `records()` (what export writes) and `replay` (rebuilding
 * every projection from the stored events and activity while the store stays in use).
 */
import {
  DEFAULT_CONFIG,
  compareIds,
  foldEventsByCustomer,
  recordActivity,
  resolveConfig,
  type HandledEvent,
  type StoreContext,
  type StoredRecord,
  type Subscriber,
} from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { expectAtRiskPages } from './atRiskReference.js';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { CUSTOMER_IDS, DAY_MS, HOUR_MS, T0, byCustomerId, collect, eventFactory, listAll } from './storeFixtures.js';

const ctx: StoreContext = { now: T0 + 20 * DAY_MS, config: DEFAULT_CONFIG };

/** Given events and reported activity, returns the subscribers they fold to, in list order. */
function fold(events: readonly HandledEvent[], activity: ReadonlyMap<string, number>): Subscriber[] {
  const folded = foldEventsByCustomer(events);
  for (const [id, at] of activity) {
    const s = folded.get(id);
    if (s !== undefined) folded.set(id, recordActivity(s, at));
  }
  return byCustomerId(folded.values());
}

/** Splits records into events (in order) and activity (sorted by customer id: their order is not part of the contract). */
function splitRecords(records: StoredRecord[]) {
  const firstActivity = records.findIndex((r) => r.kind === 'activity');
  const events = firstActivity === -1 ? records : records.slice(0, firstActivity);
  const activity = firstActivity === -1 ? [] : records.slice(firstActivity);
  return {
    events,
    activity: [...activity].sort((a, b) => compareIds(a.kind === 'activity' ? a.customer_id : '', b.kind === 'activity' ? b.customer_id : '')),
  };
}

/** Registers the records and replay tests. */
export function describeRecordsContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const ev = eventFactory('evt_records');
  const timeout = options.timeoutMs;

  /** A history of every customer id, a few events each, with reported activity for some. */
  const history = () => {
    const events = CUSTOMER_IDS.flatMap((id, i) => [
      ev('INITIAL_PURCHASE', id, T0 + i * HOUR_MS, i % 3 === 0 ? { period_type: 'TRIAL', purchased_at_ms: T0, expiration_at_ms: T0 + 7 * DAY_MS } : {}),
      ev(i % 2 === 0 ? 'RENEWAL' : 'BILLING_ISSUE', id, T0 + (i + 1) * DAY_MS),
    ]);
    const activity = new Map(CUSTOMER_IDS.filter((_, i) => i % 2 === 1).map((id, i) => [id, T0 + (3 + i) * DAY_MS]));
    return { events, activity };
  };

  describe('records', () => {
    it('streams every event in storage order, then the latest reported activity of each customer', { timeout }, () =>
      withStore(factory, async (store) => {
        const [a, b, c, d] = [
          ev('INITIAL_PURCHASE', 'alice', T0),
          ev('INITIAL_PURCHASE', '\u{1F600}', T0 + 1),
          ev('RENEWAL', 'alice', T0 + DAY_MS),
          ev('NON_RENEWING_PURCHASE', 'émile', T0 + 2),
        ];
        await store.applyEvent(b, ctx);
        await store.applyEvent(a, ctx);
        await store.applyEvents([c, b, d], ctx);
        await store.recordActivity('alice', T0 + 5 * DAY_MS, ctx);
        await store.recordActivity('alice', T0 + 2 * DAY_MS, ctx); // older: the latest stays
        await store.recordActivity('\u{1F600}', T0 + 3 * DAY_MS, ctx);
        await store.recordActivity('nobody', T0 + 3 * DAY_MS, ctx); // unknown: not kept
        const { events, activity } = splitRecords(await collect(store.records()));
        expect(events).toEqual([b, a, c, d].map((event) => ({ kind: 'event', event })));
        expect(activity).toEqual([
          { kind: 'activity', customer_id: 'alice', at: T0 + 5 * DAY_MS },
          { kind: 'activity', customer_id: '\u{1F600}', at: T0 + 3 * DAY_MS },
        ]);
      }),
    );

    it('keeps a reported activity even when an event already showed later activity', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvent(ev('INITIAL_PURCHASE', 'alice', T0 + 10 * DAY_MS), ctx);
        await store.recordActivity('alice', T0, ctx);
        const { activity } = splitRecords(await collect(store.records()));
        expect(activity).toEqual([{ kind: 'activity', customer_id: 'alice', at: T0 }]);
      }),
    );
  });

  describe('replay', () => {
    it('rebuilds subscribers equal to the folded events and activity, reporting progress', { timeout }, () =>
      withStore(factory, async (store) => {
        const { events, activity } = history();
        await store.applyEvents(events, ctx);
        for (const [id, at] of activity) await store.recordActivity(id, at, ctx);
        const expected = fold(events, activity);
        expect(await listAll(store)).toEqual(expected);

        const progress: [number, number][] = [];
        const rebuilt = await store.replay(ctx, (done, total) => progress.push([done, total]));
        expect(rebuilt).toBe(CUSTOMER_IDS.length);
        expect(progress.length).toBeGreaterThan(0);
        expect(progress.at(-1)?.[0]).toBe(rebuilt);
        for (let i = 1; i < progress.length; i++) expect(progress[i]![0]).toBeGreaterThanOrEqual(progress[i - 1]![0]);
        expect(await listAll(store)).toEqual(expected);
        expect(await store.eventCount()).toBe(events.length);
        await expectAtRiskPages(store, expected, ctx, { limit: 4, min_score: 0 });
      }),
    );

    it('is idempotent, and re-materializes under the configuration it is given', { timeout }, () =>
      withStore(factory, async (store) => {
        const { events, activity } = history();
        await store.applyEvents(events, ctx);
        for (const [id, at] of activity) await store.recordActivity(id, at, ctx);
        const expected = fold(events, activity);
        const records = await collect(store.records());
        const other: StoreContext = { now: ctx.now + DAY_MS, config: resolveConfig({ bands: { high: 45 }, risk: { inactivity_days_per_point: 1 } }) };
        expect(await store.replay(other)).toBe(CUSTOMER_IDS.length);
        expect(await store.replay(other)).toBe(CUSTOMER_IDS.length);
        expect(await listAll(store)).toEqual(expected);
        expect(await collect(store.records())).toEqual(records);
        await expectAtRiskPages(store, expected, other, { limit: 3 });
        await expectAtRiskPages(store, expected, other, { limit: 50, min_score: 0 });
      }),
    );

    it('rebuilds an empty store to nothing', { timeout }, () =>
      withStore(factory, async (store) => {
        expect(await store.replay(ctx)).toBe(0);
        expect(await store.count()).toBe(0);
      }),
    );

    it('loses no event or activity applied while it runs', { timeout }, () =>
      withStore(factory, async (store) => {
        const customers = Array.from({ length: 600 }, (_, i) => `c${String(i).padStart(4, '0')}`);
        const events = customers.map((id, i) => ev('INITIAL_PURCHASE', id, T0 + i));
        await store.applyEvents(events, ctx);
        const live: HandledEvent[] = [];
        const activity = new Map<string, number>();
        const replaying = store.replay(ctx);
        for (let i = 0; i < 60; i++) {
          // Existing customers across the whole id range, and new ones.
          const id = i % 3 === 2 ? `new_${i}` : customers[(i * 97) % customers.length]!;
          const event = ev(i % 2 === 0 ? 'RENEWAL' : 'BILLING_ISSUE', id, T0 + DAY_MS + i);
          live.push(event);
          await store.applyEvent(event, ctx);
          if (i % 5 === 0) {
            activity.set(id, T0 + 2 * DAY_MS + i);
            await store.recordActivity(id, T0 + 2 * DAY_MS + i, ctx);
          }
          await new Promise((resolve) => setImmediate(resolve));
        }
        const rebuilt = await replaying;
        expect(rebuilt).toBeGreaterThanOrEqual(customers.length);
        expect(rebuilt).toBeLessThanOrEqual(customers.length + 20);
        const expected = fold([...events, ...live], activity);
        expect(await listAll(store)).toEqual(expected);
        expect(await store.eventCount()).toBe(events.length + live.length);
        await expectAtRiskPages(store, expected, ctx, { limit: 100 });
      }),
    );
  });
}
