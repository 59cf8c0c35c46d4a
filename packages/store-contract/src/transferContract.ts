/**
 * The contract of TRANSFER (docs/rules.md §2): the senders' whole histories move to the receiver,
 * re-keyed, in one transaction; the senders' records go away (never at risk), the receiver is the
 * fold of the union, totals follow, and a repeated transfer id changes nothing.
 */
import { DEFAULT_CONFIG, foldEvents, reKeyToReceiver, recordActivity, transferEventSchema, type HandledEvent, type StoreContext, type TransferEvent } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { expectAtRiskPage } from './atRiskReference.js';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { DAY_MS, T0, buildEvent, collect, listAll } from './storeFixtures.js';

const ctx: StoreContext = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };

/**
 * Given an id, the senders and the receivers, returns the TRANSFER event the billing service sends.
 *
 * @example
 * transferEvent('tr_1', ['$RCAnonymousID:ab'], ['user_42']);
 */
export function transferEvent(id: string, from: readonly string[], to: readonly string[], at = T0 + 35 * DAY_MS): TransferEvent {
  return transferEventSchema.parse({ type: 'TRANSFER', id, event_timestamp_ms: at, transferred_from: from, transferred_to: to, environment: 'PRODUCTION' });
}

const rekey = (events: readonly HandledEvent[], to: string): HandledEvent[] => events.map((e) => reKeyToReceiver(e, to));

/** Registers the transfer tests. */
export function describeTransferContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const timeout = options.timeoutMs;
  const anon = [
    buildEvent('INITIAL_PURCHASE', 'tr_e1', '$RCAnonymousID:ab', T0, { price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS }),
    buildEvent('RENEWAL', 'tr_e2', '$RCAnonymousID:ab', T0 + 30 * DAY_MS, { price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS }),
    buildEvent('CANCELLATION', 'tr_e3', '$RCAnonymousID:ab', T0 + 31 * DAY_MS, { cancel_reason: 'UNSUBSCRIBE' }),
  ];
  const known = [buildEvent('NON_RENEWING_PURCHASE', 'tr_e4', 'user_42', T0 + DAY_MS, { price: 4.99 })];
  const other = [buildEvent('INITIAL_PURCHASE', 'tr_e5', 'zed', T0, { price: 120, expiration_at_ms: T0 + 365 * DAY_MS })];

  describe('applyTransfer', () => {
    it('moves the sender history to the receiver, removes the sender, leaves others untouched, and totals follow', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents([...anon, ...known, ...other], ctx);
        const zedBefore = await store.get('zed');
        const outcome = await store.applyTransfer(transferEvent('tr_1', ['$RCAnonymousID:ab'], ['user_42']), ctx);
        const expected = foldEvents([...known, ...rekey(anon, 'user_42')]);
        expect(outcome).toEqual({ status: 'applied', receiver: 'user_42', moved: 3, subscriber: expected });
        expect(await store.get('user_42')).toEqual(expected);
        expect(await store.get('$RCAnonymousID:ab')).toBeUndefined();
        expect(await store.get('zed')).toEqual(zedBefore);
        expect(await store.count()).toBe(2);
        expect(await store.eventCount()).toBe(5);
        const subscribers = await listAll(store);
        for (const query of [{ limit: 10, min_score: 0 }, { limit: 10, min_score: 0, sort: 'revenue' as const }]) {
          expectAtRiskPage(await store.atRisk(query, ctx), subscribers, ctx, query);
        }
        const stored = (await collect(store.records())).flatMap((r) => (r.kind === 'event' ? [r.event] : []));
        expect(stored.filter((e) => e.app_user_id === '$RCAnonymousID:ab')).toEqual([]);
        expect(stored.filter((e) => e.app_user_id === 'user_42').map((e) => e.id).sort()).toEqual(['tr_e1', 'tr_e2', 'tr_e3', 'tr_e4']);
        expect(await store.replay(ctx)).toBe(2);
        expect(await store.get('user_42')).toEqual(expected);
      }),
    );

    it('answers duplicate for a transfer id seen before, and changes nothing', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents([...anon, ...known], ctx);
        await store.applyTransfer(transferEvent('tr_1', ['$RCAnonymousID:ab'], ['user_42']), ctx);
        // The same id again (a retry), even naming other ids, moves nothing back.
        expect(await store.applyTransfer(transferEvent('tr_1', ['user_42'], ['$RCAnonymousID:ab']), ctx)).toEqual({ status: 'duplicate' });
        expect(await store.get('$RCAnonymousID:ab')).toBeUndefined();
        expect((await store.get('user_42'))?.event_count).toBe(4);
      }),
    );

    it('creates an unknown receiver from the moved history, with the sender latest reported activity', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents(anon, ctx);
        await store.recordActivity('$RCAnonymousID:ab', T0 + 33 * DAY_MS, ctx);
        const outcome = await store.applyTransfer(transferEvent('tr_2', ['$RCAnonymousID:ab', 'never-seen'], ['user_9', 'user_8']), ctx);
        // Several receivers: the first in code point order gets the history.
        const expected = recordActivity(foldEvents(rekey(anon, 'user_8'))!, T0 + 33 * DAY_MS);
        expect(outcome).toEqual({ status: 'applied', receiver: 'user_8', moved: 3, subscriber: expected });
        expect(await store.get('user_8')).toEqual(expected);
        expect(await store.get('user_9')).toBeUndefined();
        expect(await collect(store.records())).toContainEqual({ kind: 'activity', customer_id: 'user_8', at: T0 + 33 * DAY_MS });
        expect(await store.replay(ctx)).toBe(1);
        expect(await store.get('user_8')).toEqual(expected);
      }),
    );

    it('moves nothing without a receiver or a known sender', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents(known, ctx);
        expect(await store.applyTransfer(transferEvent('tr_3', ['user_42'], []), ctx)).toEqual({ status: 'applied', receiver: undefined, moved: 0, subscriber: undefined });
        expect(await store.applyTransfer(transferEvent('tr_4', ['nobody'], ['user_42']), ctx)).toEqual({
          status: 'applied', receiver: 'user_42', moved: 0, subscriber: await store.get('user_42'),
        });
        expect(await store.applyTransfer(transferEvent('tr_5', ['user_42'], ['user_42']), ctx)).toMatchObject({ status: 'applied', moved: 0 });
        expect(await store.count()).toBe(1);
      }),
    );
  });
}
