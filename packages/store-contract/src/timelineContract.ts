/**
 * The contract of the dashboard's reads: one customer's timeline (`eventsOf`: newest first, ties by
 * id in code point order, keyset cursors) and the daily trend records (`snapshots`: one per day,
 * replaced by a later put, read by day range).
 */
import { DEFAULT_CONFIG, dailySnapshotOf, utcDayOf, type StoreContext } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { DAY_MS, T0, buildEvent, eventFactory } from './storeFixtures.js';

const ctx: StoreContext = { now: T0 + 30 * DAY_MS, config: DEFAULT_CONFIG };

/** Registers the timeline and snapshot tests. */
export function describeTimelineContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const ev = eventFactory('evt_timeline');
  const timeout = options.timeoutMs;

  describe('eventsOf', () => {
    it("pages one customer's events newest first, ties by id in code point order, and no one else's", { timeout }, () =>
      withStore(factory, async (store) => {
        // Same instant, ids whose UTF-16 order differs from their code point order.
        const tied = ['t_\uFFFD', 't_\u{1F600}', 't_a', 't_\uE000'].map((id) => buildEvent('RENEWAL', id, 'alice', T0 + DAY_MS));
        const older = ev('INITIAL_PURCHASE', 'alice', T0, { period_type: 'TRIAL' });
        const newer = ev('CANCELLATION', 'alice', T0 + 2 * DAY_MS, { cancel_reason: 'UNSUBSCRIBE' });
        await store.applyEvents([newer, ...tied, older, ev('RENEWAL', 'bob', T0 + DAY_MS)], ctx);
        const expected = [newer, ...['t_\u{1F600}', 't_\uFFFD', 't_\uE000', 't_a'].map((id) => tied.find((e) => e.id === id)!), older];
        const first = await store.eventsOf('alice', { limit: 4 });
        expect(first.items).toEqual(expected.slice(0, 4));
        expect(first.next).toEqual({ event_timestamp_ms: T0 + DAY_MS, id: 't_\uE000' });
        const second = await store.eventsOf('alice', { limit: 4, before: first.next! });
        expect(second).toEqual({ items: expected.slice(4), next: null });
        expect(await store.eventsOf('alice', { limit: 6 })).toEqual({ items: expected, next: null });
      }),
    );

    it('answers an empty page for an unknown customer, and for a cursor past the oldest event', { timeout }, () =>
      withStore(factory, async (store) => {
        expect(await store.eventsOf('nobody', { limit: 10 })).toEqual({ items: [], next: null });
        const only = ev('RENEWAL', 'carol', T0);
        await store.applyEvent(only, ctx);
        expect(await store.eventsOf('carol', { limit: 1 })).toEqual({ items: [only], next: null });
        expect(await store.eventsOf('carol', { limit: 1, before: { event_timestamp_ms: T0, id: only.id } })).toEqual({ items: [], next: null });
        expect(await store.eventsOf('carol', { limit: 0 })).toEqual({ items: [], next: null });
      }),
    );

    it('hands out copies: changing an event it read (a timeline page, the records) changes nothing it stores', { timeout }, () =>
      withStore(factory, async (store) => {
        const purchase = ev('INITIAL_PURCHASE', 'dave', T0, { period_type: 'TRIAL' });
        const renewal = ev('RENEWAL', 'dave', T0 + DAY_MS);
        const stored = structuredClone([renewal, purchase]);
        await store.applyEvents([purchase, renewal], ctx);
        const page = await store.eventsOf('dave', { limit: 10 });
        for (const item of page.items) Object.assign(item, { type: 'EXPIRATION', app_user_id: 'mallory', event_timestamp_ms: 0 });
        for await (const record of store.records()) if (record.kind === 'event') Object.assign(record.event, { app_user_id: 'mallory' });
        expect(await store.eventsOf('dave', { limit: 10 })).toEqual({ items: stored, next: null });
        expect(await store.eventsOf('mallory', { limit: 10 })).toEqual({ items: [], next: null });
      }),
    );
  });

  describe('snapshots', () => {
    const day = (i: number) => utcDayOf(T0 + i * DAY_MS);
    const snapshot = (i: number, subscribers: number, source: 'sweep' | 'events' = 'sweep') =>
      dailySnapshotOf(day(i), T0 + i * DAY_MS + 3_600_000, source, { critical: { subscribers, monthly_value_usd: subscribers * 9.99 }, low: { subscribers: 1, monthly_value_usd: 0.01 } }, { min_score: 60, subscribers, monthly_value_usd: Math.round(subscribers * 999) / 100 });

    it('keeps one record per day, the latest put winning, read by day range oldest first', { timeout }, () =>
      withStore(factory, async (store) => {
        expect(await store.snapshots.range(day(0), day(30))).toEqual([]);
        await store.snapshots.put(snapshot(3, 1));
        await store.snapshots.put(snapshot(1, 2, 'events'));
        await store.snapshots.put(snapshot(2, 3));
        await store.snapshots.put(snapshot(3, 4));
        expect(await store.snapshots.range(day(0), day(30))).toEqual([snapshot(1, 2, 'events'), snapshot(2, 3), snapshot(3, 4)]);
        expect(await store.snapshots.range(day(2), day(2))).toEqual([snapshot(2, 3)]);
        expect(await store.snapshots.range(day(4), day(30))).toEqual([]);
      }),
    );
  });
}
