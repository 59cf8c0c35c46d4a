/**
 * The contract of the write path and the plain reads: events applied exactly once (also inside one
 * batch), app-reported activity, and get / list / count / eventCount.
 */
import { DEFAULT_CONFIG, applyEvent, foldEvents, recordActivity, type StoreContext } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { CUSTOMER_IDS, DAY_MS, T0, buildEvent, byCustomerId, collect, eventFactory, listAll } from './storeFixtures.js';

const ctx: StoreContext = { now: T0 + 30 * DAY_MS, config: DEFAULT_CONFIG };

/** Registers the write-path and read tests. */
export function describeEventsContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const ev = eventFactory('evt_events');
  const timeout = options.timeoutMs;

  describe('applyEvent', () => {
    it('applies a new event and answers applied with the folded subscriber', { timeout }, () =>
      withStore(factory, async (store) => {
        const purchase = ev('INITIAL_PURCHASE', 'alice', T0, { period_type: 'TRIAL', purchased_at_ms: T0, expiration_at_ms: T0 + 14 * DAY_MS });
        const outcome = await store.applyEvent(purchase, ctx);
        expect(outcome).toEqual({ status: 'applied', subscriber: applyEvent(undefined, purchase) });
        expect(await store.get('alice')).toEqual(applyEvent(undefined, purchase));
      }),
    );

    it('answers duplicate for a repeated event id and changes nothing', { timeout }, () =>
      withStore(factory, async (store) => {
        const renewal = ev('RENEWAL', 'alice', T0);
        await store.applyEvent(renewal, ctx);
        const before = await store.get('alice');
        const again = await store.applyEvent(renewal, ctx);
        expect(again).toEqual({ status: 'duplicate', subscriber: before });
        expect(before?.renewals).toBe(1);
        expect(await store.eventCount()).toBe(1);
      }),
    );

    it('treats an event id as seen even when the repeat carries other content', { timeout }, () =>
      withStore(factory, async (store) => {
        const first = ev('RENEWAL', 'alice', T0);
        await store.applyEvent(first, ctx);
        const forged = buildEvent('EXPIRATION', first.id, 'alice', T0 + DAY_MS);
        expect((await store.applyEvent(forged, ctx)).status).toBe('duplicate');
        expect((await store.get('alice'))?.state).toBe('active');
      }),
    );

    it('folds events delivered out of order to the in-order result', { timeout }, () =>
      withStore(factory, async (store) => {
        const events = [
          ev('INITIAL_PURCHASE', 'bob', T0),
          ev('RENEWAL', 'bob', T0 + 30 * DAY_MS),
          ev('CANCELLATION', 'bob', T0 + 40 * DAY_MS, { cancel_reason: 'UNSUBSCRIBE' }),
        ];
        for (const event of [events[2]!, events[0]!, events[1]!]) await store.applyEvent(event, ctx);
        expect(await store.get('bob')).toEqual(foldEvents(events));
      }),
    );
  });

  describe('applyEvents', () => {
    it('answers one status per event, in order, deduplicating within the batch and against the store', { timeout }, () =>
      withStore(factory, async (store) => {
        const a = ev('INITIAL_PURCHASE', 'alice', T0);
        const b = ev('RENEWAL', 'alice', T0 + DAY_MS);
        const c = ev('INITIAL_PURCHASE', 'Bob', T0);
        await store.applyEvent(a, ctx);
        const statuses = await store.applyEvents([b, a, c, b, buildEvent('RENEWAL', c.id, 'Bob', T0 + 5)], ctx);
        expect(statuses).toEqual(['applied', 'duplicate', 'applied', 'duplicate', 'duplicate']);
        expect(await store.get('alice')).toEqual(foldEvents([a, b]));
        expect(await store.get('Bob')).toEqual(foldEvents([c]));
        expect(await store.eventCount()).toBe(3);
      }),
    );

    it('accepts an empty batch', { timeout }, () =>
      withStore(factory, async (store) => {
        expect(await store.applyEvents([], ctx)).toEqual([]);
        expect(await store.count()).toBe(0);
      }),
    );
  });

  describe('recordActivity', () => {
    it('creates nothing for an unknown customer', { timeout }, () =>
      withStore(factory, async (store) => {
        expect(await store.recordActivity('nobody', T0, ctx)).toBeUndefined();
        expect(await store.get('nobody')).toBeUndefined();
        expect(await store.count()).toBe(0);
        expect(await collect(store.records())).toEqual([]);
      }),
    );

    it('moves activity forward and never back', { timeout }, () =>
      withStore(factory, async (store) => {
        const purchase = ev('INITIAL_PURCHASE', 'alice', T0);
        await store.applyEvent(purchase, ctx);
        const later = await store.recordActivity('alice', T0 + 5 * DAY_MS, ctx);
        expect(later).toEqual(recordActivity(applyEvent(undefined, purchase), T0 + 5 * DAY_MS));
        expect(await store.recordActivity('alice', T0 + DAY_MS, ctx)).toEqual(later);
        expect(await store.get('alice')).toEqual(later);
      }),
    );
  });

  describe('get, list, count, eventCount', () => {
    it('lists every subscriber in code point order of customer ids', { timeout }, () =>
      withStore(factory, async (store) => {
        const events = [...CUSTOMER_IDS].reverse().map((id, i) => ev('INITIAL_PURCHASE', id, T0 + i));
        for (const event of events) await store.applyEvent(event, ctx);
        const listed = await listAll(store);
        expect(listed.map((s) => s.customer_id)).toEqual(byCustomerId(listed).map((s) => s.customer_id));
        expect(listed).toEqual(byCustomerId(events.map((e) => applyEvent(undefined, e))));
        // '\uFFFD' sorts before the astral '\u{1F600}' in code point (UTF-8) order, unlike UTF-16.
        const ids = listed.map((s) => s.customer_id);
        expect(ids.indexOf('\uFFFD')).toBeLessThan(ids.indexOf('\u{1F600}'));
        expect(ids.indexOf('a\uE000')).toBeLessThan(ids.indexOf('a\u{10000}'));
        expect(await store.count()).toBe(CUSTOMER_IDS.length);
        expect(await store.eventCount()).toBe(CUSTOMER_IDS.length);
        for (const event of events) expect(await store.get(event.app_user_id)).toEqual(applyEvent(undefined, event));
      }),
    );

    it('is empty when new', { timeout }, () =>
      withStore(factory, async (store) => {
        expect(await listAll(store)).toEqual([]);
        expect(await store.count()).toBe(0);
        expect(await store.eventCount()).toBe(0);
        expect(await store.get('alice')).toBeUndefined();
      }),
    );
  });
}
