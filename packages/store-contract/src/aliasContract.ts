/**
 * The contract of aliases (docs/rules.md §2): one person under several ids is one record, found by
 * any of its ids (`app_user_id`, `original_app_user_id`, `aliases`) and named by the id the app
 * uses now; an event naming ids of two records merges them, re-folded from the union (the core's
 * `foldByIdentity` is the reference), totals follow; a TRANSFER moves a whole person.
 */
import { DEFAULT_CONFIG, foldByIdentity, reKeyToReceiver, recordActivity, type HandledEvent, type StoreContext } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { expectAtRiskPage } from './atRiskReference.js';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { DAY_MS, T0, buildEvent, byCustomerId, collect, listAll } from './storeFixtures.js';
import { transferEvent } from './transferContract.js';

const ctx: StoreContext = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };
const ANON = '$RCAnonymousID:ab';
const known = { original_app_user_id: ANON, aliases: [ANON, 'user_42'] };

/** An anonymous trial, then (after the login) the identified id's events, which name both ids. */
const anonymous = [
  buildEvent('INITIAL_PURCHASE', 'al_e1', ANON, T0, { period_type: 'TRIAL', price: 0, expiration_at_ms: T0 + 7 * DAY_MS, aliases: [ANON] }),
];
const identified = [
  buildEvent('RENEWAL', 'al_e2', 'user_42', T0 + 7 * DAY_MS, { ...known, price: 9.99, expiration_at_ms: T0 + 37 * DAY_MS, is_trial_conversion: true }),
  buildEvent('CANCELLATION', 'al_e3', 'user_42', T0 + 20 * DAY_MS, { ...known, cancel_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 37 * DAY_MS }),
];
/** Someone else, never linked. */
const other = [buildEvent('INITIAL_PURCHASE', 'al_e4', 'zed', T0, { price: 120, expiration_at_ms: T0 + 365 * DAY_MS })];

const eventsOf = async (store: Parameters<Parameters<typeof withStore>[1]>[0]): Promise<HandledEvent[]> =>
  (await collect(store.records())).flatMap((r) => (r.kind === 'event' ? [r.event] : []));

/** Registers the alias tests. */
export function describeAliasContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const timeout = options.timeoutMs;

  describe('aliases: one person under several ids', () => {
    it('finds the record by any of its ids and names it by the id of the latest event, in any delivery order', { timeout }, async () => {
      const expected = foldByIdentity([...anonymous, ...identified]).get('user_42')!;
      expect(expected.customer_id).toBe('user_42');
      for (const order of [[...anonymous, ...identified, ...other], [...[...identified].reverse(), ...other, ...anonymous]]) {
        await withStore(factory, async (store) => {
          for (const event of order) await store.applyEvent(event, ctx);
          expect(await store.count()).toBe(2);
          for (const id of [ANON, 'user_42']) expect(await store.get(id)).toEqual(expected);
          expect(await listAll(store)).toEqual(byCustomerId([expected, foldByIdentity(other).get('zed')!]));
          const page = await store.atRisk({ limit: 10, min_score: 0 }, ctx);
          expect(page.items.map((item) => item.customer_id).sort()).toEqual(['user_42', 'zed']);
          expectAtRiskPage(page, await listAll(store), ctx, { limit: 10, min_score: 0 });
          // The log keeps each event as delivered; a replay folds the person again.
          expect((await eventsOf(store)).map((e) => e.id).sort()).toEqual(['al_e1', 'al_e2', 'al_e3', 'al_e4']);
          expect(await store.replay(ctx)).toBe(2);
          expect(await store.get(ANON)).toEqual(expected);
        });
      }
    });

    it('merges two records when an event names ids of both: every event counted once, totals follow', { timeout }, () =>
      withStore(factory, async (store) => {
        // Two people as far as the store knows: the anonymous id, and the identified id before any link.
        const unlinked = buildEvent('NON_RENEWING_PURCHASE', 'al_e5', 'user_42', T0 + DAY_MS, { price: 4.99, aliases: ['user_42'] });
        await store.applyEvents([...anonymous, unlinked, ...other], ctx);
        expect(await store.count()).toBe(3);
        await store.recordActivity(ANON, T0 + 3 * DAY_MS, ctx);
        const outcome = await store.applyEvent(identified[0]!, ctx);
        const all = [...anonymous, unlinked, identified[0]!];
        const expected = recordActivity(foldByIdentity(all).get('user_42')!, T0 + 3 * DAY_MS);
        expect(outcome).toEqual({ status: 'applied', subscriber: expected });
        expect(expected.event_count).toBe(3);
        expect(await store.count()).toBe(2);
        for (const id of [ANON, 'user_42']) expect(await store.get(id)).toEqual(expected);
        for (const query of [{ limit: 10, min_score: 0 }, { limit: 10, min_score: 0, sort: 'revenue' as const }]) {
          expectAtRiskPage(await store.atRisk(query, ctx), await listAll(store), ctx, query);
        }
        // The reported activity moved with the record, and survives a replay.
        expect(await collect(store.records())).toContainEqual({ kind: 'activity', customer_id: 'user_42', at: T0 + 3 * DAY_MS });
        expect(await store.replay(ctx)).toBe(2);
        expect(await store.get(ANON)).toEqual(expected);
        // A retry of the merging event is a duplicate and names the merged record.
        expect(await store.applyEvent(identified[0]!, ctx)).toEqual({ status: 'duplicate', subscriber: expected });
      }),
    );

    it('groups within one batch as event by event', { timeout }, () =>
      withStore(factory, async (store) => {
        const events = [...identified, ...other, ...anonymous];
        expect(await store.applyEvents(events, ctx)).toEqual(['applied', 'applied', 'applied', 'applied']);
        expect(await listAll(store)).toEqual(byCustomerId(foldByIdentity(events).values()));
        expect(await store.get(ANON)).toEqual(foldByIdentity(events).get('user_42'));
      }),
    );

    it('keeps the name of the latest event when an older one under another id arrives late', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents(identified, ctx);
        const late = buildEvent('NON_RENEWING_PURCHASE', 'al_e6', ANON, T0 + 2 * DAY_MS, { price: 1.99, aliases: [ANON] });
        const outcome = await store.applyEvent(late, ctx);
        expect(outcome).toEqual({ status: 'applied', subscriber: foldByIdentity([...identified, late]).get('user_42') });
        expect(outcome.subscriber?.customer_id).toBe('user_42');
        expect(await store.count()).toBe(1);
      }),
    );

    it('transfers a whole person to the receiver; the sender\u2019s ids are free again', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents([...anonymous, ...identified, ...other], ctx);
        const outcome = await store.applyTransfer(transferEvent('al_tr1', [ANON], ['user_9']), ctx);
        const moved = [...anonymous, ...identified].map((e) => reKeyToReceiver(e, 'user_9'));
        const expected = foldByIdentity(moved).get('user_9')!;
        expect(outcome).toEqual({ status: 'applied', receiver: 'user_9', moved: 3, subscriber: expected });
        expect(await store.get('user_9')).toEqual(expected);
        for (const id of [ANON, 'user_42']) expect(await store.get(id)).toBeUndefined();
        expect(await store.count()).toBe(2);
        // The sender's identified id buys again: a person of its own, not the receiver.
        const again = buildEvent('INITIAL_PURCHASE', 'al_e7', 'user_42', T0 + 36 * DAY_MS, { price: 9.99, expiration_at_ms: T0 + 66 * DAY_MS, aliases: ['user_42'] });
        await store.applyEvent(again, ctx);
        expect(await store.get('user_42')).toEqual(foldByIdentity([again]).get('user_42'));
        expect((await store.get('user_9'))?.event_count).toBe(3);
        expect(await store.replay(ctx)).toBe(3);
      }),
    );

    it('moves nothing on a transfer between two ids of one person', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents([...anonymous, ...identified], ctx);
        const before = await store.get('user_42');
        expect(await store.applyTransfer(transferEvent('al_tr2', [ANON], ['user_42']), ctx)).toEqual({ status: 'applied', receiver: 'user_42', moved: 0, subscriber: before });
        expect(await store.get(ANON)).toEqual(before);
      }),
    );
  });
}
