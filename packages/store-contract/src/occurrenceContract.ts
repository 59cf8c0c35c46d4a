/**
 * The contract of per-transaction deduplication: a purchase, renewal, one-time purchase or billing
 * failure of one store delivered under a second id (the data import's and the webhook's copy of one
 * period) is a duplicate, alone, in a batch and concurrently; another store's transaction with the
 * same id is not; a repeat under another customer names who holds it (`heldBy`); other types stay
 * unique by id only.
 */
import { DEFAULT_CONFIG, foldEvents, type HandledEvent, type StoreContext } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { DAY_MS, T0, buildEvent, collect } from './storeFixtures.js';

const ctx: StoreContext = { now: T0 + 90 * DAY_MS, config: DEFAULT_CONFIG };

/** The import's copy (`export:<txn>:<type>`) and the webhook's copy (`rc-<txn>`) of one transaction. */
const both = (type: HandledEvent['type'], txn: string, customer: string, at: number, extra: Record<string, unknown> = {}): [HandledEvent, HandledEvent] => [
  buildEvent(type, `export:${txn}:${type}`, customer, at, { transaction_id: txn, ...extra }),
  buildEvent(type, `rc-${txn}-${type}`, customer, at, { transaction_id: txn, ...extra }),
];

/** Registers the per-transaction tests. */
export function describeOccurrenceContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const timeout = options.timeoutMs;

  describe('one transaction counts once', () => {
    it('answers duplicate for a renewal or billing failure of a transaction already stored under another id', { timeout }, () =>
      withStore(factory, async (store) => {
        const [importedBuy, webhookBuy] = both('INITIAL_PURCHASE', 'al1', 'alice', T0);
        const [importedRenewal, webhookRenewal] = both('RENEWAL', 'al2', 'alice', T0 + 30 * DAY_MS);
        const [importedFailure, webhookFailure] = both('BILLING_ISSUE', 'al2', 'alice', T0 + 59 * DAY_MS);
        for (const e of [importedBuy, importedRenewal, importedFailure]) expect((await store.applyEvent(e, ctx)).status).toBe('applied');
        const before = await store.get('alice');
        for (const e of [webhookBuy, webhookRenewal, webhookFailure]) expect(await store.applyEvent(e, ctx)).toEqual({ status: 'duplicate', subscriber: before });
        expect(before).toMatchObject({ renewals: 1, billing_failures: 1 });
        expect(await store.eventCount()).toBe(3);
        expect((await collect(store.records())).map((r) => (r.kind === 'event' ? r.event.id : r.kind))).toEqual([importedBuy.id, importedRenewal.id, importedFailure.id]);
        expect(await store.get('alice')).toEqual(foldEvents([webhookBuy, webhookRenewal, webhookFailure, importedBuy, importedRenewal, importedFailure].filter((e) => e.id.startsWith('export:'))));
      }),
    );

    it('keeps the first of two copies inside one batch, and counts distinct transactions and other types by id', { timeout }, () =>
      withStore(factory, async (store) => {
        const [a, b] = both('RENEWAL', 't2', 'bob', T0 + 30 * DAY_MS);
        const other = buildEvent('RENEWAL', 'rc-t3', 'bob', T0 + 60 * DAY_MS, { transaction_id: 't3' });
        const noTxn = buildEvent('RENEWAL', 'rc-none', 'bob', T0 + 61 * DAY_MS);
        const cancel1 = buildEvent('CANCELLATION', 'c1', 'bob', T0 + 62 * DAY_MS, { transaction_id: 't3', cancel_reason: 'UNSUBSCRIBE' });
        const cancel2 = buildEvent('CANCELLATION', 'c2', 'bob', T0 + 63 * DAY_MS, { transaction_id: 't3', cancel_reason: 'UNSUBSCRIBE' });
        const sameTxnOtherType = buildEvent('BILLING_ISSUE', 'bi-t3', 'bob', T0 + 64 * DAY_MS, { transaction_id: 't3' });
        const statuses = await store.applyEvents([a, b, other, noTxn, cancel1, cancel2, sameTxnOtherType, b], ctx);
        expect(statuses).toEqual(['applied', 'duplicate', 'applied', 'applied', 'applied', 'applied', 'applied', 'duplicate']);
        expect(await store.get('bob')).toMatchObject({ renewals: 3, billing_failures: 1 });
        expect(await store.eventCount()).toBe(6);
      }),
    );

    it('counts one transaction id in two stores as two transactions, alone and in a batch', { timeout }, () =>
      withStore(factory, async (store) => {
        const apple = buildEvent('RENEWAL', 'rc-apple', 'dave', T0 + 30 * DAY_MS, { transaction_id: 'shared', store: 'APP_STORE' });
        const play = buildEvent('RENEWAL', 'rc-play', 'dave', T0 + 31 * DAY_MS, { transaction_id: 'shared', store: 'PLAY_STORE' });
        const none = buildEvent('RENEWAL', 'rc-none', 'dave', T0 + 32 * DAY_MS, { transaction_id: 'shared', store: null });
        expect((await store.applyEvent(apple, ctx)).status).toBe('applied');
        expect((await store.applyEvent(play, ctx)).status).toBe('applied');
        expect((await store.applyEvent(none, ctx)).status).toBe('applied');
        expect((await store.get('dave'))?.renewals).toBe(3);
        const copies = [play, none].map((e) => ({ ...e, id: `${e.id}-copy` }));
        expect(await store.applyEvents([...copies, buildEvent('RENEWAL', 'rc-stripe', 'dave', T0 + 33 * DAY_MS, { transaction_id: 'shared', store: 'STRIPE' })], ctx)).toEqual([
          'duplicate',
          'duplicate',
          'applied',
        ]);
        expect((await store.get('dave'))?.renewals).toBe(4);
        expect(await store.eventCount()).toBe(4);
      }),
    );

    it('answers a repeat under another customer as a duplicate naming who holds it, and one person\'s repeat without', { timeout }, () =>
      withStore(factory, async (store) => {
        const buy = buildEvent('INITIAL_PURCHASE', 'rc-buy', 'erin', T0, { transaction_id: 'e1', price: 9.99 });
        expect((await store.applyEvent(buy, ctx)).status).toBe('applied');
        expect((await store.applyEvent(buildEvent('INITIAL_PURCHASE', 'rc-frank', 'frank', T0, { transaction_id: 'f1' }), ctx)).status).toBe('applied');
        const erin = await store.get('erin');
        const frank = await store.get('frank');
        const heldBy = { key: 'INITIAL_PURCHASE:APP_STORE:e1', customer: 'erin' };
        // Another customer, known or not: still a duplicate (one store's transaction), but named.
        expect(await store.applyEvent({ ...buy, id: 'rc-buy-frank', app_user_id: 'frank', original_app_user_id: 'frank' }, ctx)).toEqual({ status: 'duplicate', subscriber: frank, heldBy });
        expect(await store.applyEvent({ ...buy, id: 'rc-buy-gina', app_user_id: 'gina', original_app_user_id: 'gina' }, ctx)).toEqual({ status: 'duplicate', subscriber: undefined, heldBy });
        // The same customer under a new id, a retry of the id, and an alias naming erin: quiet.
        expect(await store.applyEvent({ ...buy, id: 'export:e1:INITIAL_PURCHASE' }, ctx)).toEqual({ status: 'duplicate', subscriber: erin });
        expect(await store.applyEvent(buy, ctx)).toEqual({ status: 'duplicate', subscriber: erin });
        expect(await store.applyEvent({ ...buy, id: 'rc-buy-alias', app_user_id: 'erin-phone', original_app_user_id: 'erin-phone', aliases: ['erin', 'erin-phone'] }, ctx)).toEqual({
          status: 'duplicate',
          subscriber: undefined,
        });
        // Not an occurrence at all: nothing to name.
        const cancel = buildEvent('CANCELLATION', 'rc-cancel', 'erin', T0 + DAY_MS, { transaction_id: 'e1', cancel_reason: 'UNSUBSCRIBE' });
        expect((await store.applyEvent(cancel, ctx)).status).toBe('applied');
        expect(await store.applyEvent({ ...cancel, app_user_id: 'frank', original_app_user_id: 'frank' }, ctx)).toEqual({ status: 'duplicate', subscriber: frank });
        expect(await store.eventCount()).toBe(3);
        expect(await store.get('erin')).toEqual(foldEvents([buy, cancel]));
        expect(await store.get('gina')).toBeUndefined();
      }),
    );

    it.each(['applyEvents', 'import session'] as const)('%s tells a listener, after the batch, of each duplicate another customer holds (position and holder), and of no other', { timeout }, (path) =>
      withStore(factory, async (store) => {
        const buy = buildEvent('INITIAL_PURCHASE', 'rc-buy', 'ivy', T0, { transaction_id: 'i1', price: 9.99 });
        expect((await store.applyEvent(buy, ctx)).status).toBe('applied');
        const ivy = await store.get('ivy');
        const renewal = buildEvent('RENEWAL', 'rc-ren', 'jon', T0 + 30 * DAY_MS, { transaction_id: 'j2', price: 9.99 });
        const batch = [
          { ...buy, id: 'rc-buy-jon', app_user_id: 'jon', original_app_user_id: 'jon' }, // ivy's, under jon: told
          buildEvent('INITIAL_PURCHASE', 'rc-jon', 'jon', T0, { transaction_id: 'j1', price: 9.99 }), // new
          buy, // a retry of ivy's id: quiet
          { ...buy, id: 'export:i1:INITIAL_PURCHASE' }, // ivy's transaction under ivy: quiet
          renewal, // new
          { ...renewal, id: 'rc-ren-kim', app_user_id: 'kim', original_app_user_id: 'kim' }, // jon's (this batch's) under kim: told
        ];
        const told: [number, unknown][] = [];
        const listener = (i: number, holder: unknown) => void told.push([i, holder]);
        const statuses =
          path === 'applyEvents'
            ? await store.applyEvents(batch, ctx, listener)
            : await (async () => {
                const session = await store.beginImport(ctx);
                const appended = await session.append(batch, listener);
                await session.finish(ctx);
                return appended;
              })();
        expect(statuses).toEqual(['duplicate', 'applied', 'duplicate', 'duplicate', 'applied', 'duplicate']);
        expect(told).toEqual([
          [0, { key: 'INITIAL_PURCHASE:APP_STORE:i1', customer: 'ivy' }],
          [5, { key: 'RENEWAL:APP_STORE:j2', customer: 'jon' }],
        ]);
        expect(await store.get('ivy')).toEqual(ivy);
        expect(await store.get('kim')).toBeUndefined();
        // Without a listener the same batch again answers the same statuses (all duplicates now).
        expect(await store.applyEvents(batch, ctx)).toEqual(batch.map(() => 'duplicate'));
      }),
    );

    it('in a batch, a copy refused as a stored transaction holds back no later event of its id, and storage order stays the batch\'s', { timeout }, () =>
      withStore(factory, async (store) => {
        const failure = buildEvent('BILLING_ISSUE', 'z0', 'hana', T0 + DAY_MS, { transaction_id: 'h9', store: 'PLAY_STORE' });
        expect((await store.applyEvent(failure, ctx)).status).toBe('applied');
        const copy = { ...failure, id: 'z1' };
        const buy = buildEvent('INITIAL_PURCHASE', 'z1', 'hana', T0, { transaction_id: 'h1', price: 9.99 });
        const renewal = buildEvent('RENEWAL', 'z2', 'hana', T0 + 2 * DAY_MS, { transaction_id: 'h2', price: 9.99 });
        expect(await store.applyEvents([copy, buy, renewal, { ...buy, id: 'z3' }], ctx)).toEqual(['duplicate', 'applied', 'applied', 'duplicate']);
        expect((await collect(store.records())).flatMap((r) => (r.kind === 'event' ? [r.event] : []))).toEqual([failure, buy, renewal]);
        expect(await store.get('hana')).toEqual(foldEvents([failure, buy, renewal]));
      }),
    );

    it('applies exactly one of two copies delivered at the same moment', { timeout }, () =>
      withStore(factory, async (store) => {
        const copies = Array.from({ length: 6 }, (_, i) => buildEvent('RENEWAL', `copy-${i}`, 'carol', T0 + 30 * DAY_MS, { transaction_id: 'c2' }));
        const outcomes = await Promise.all(copies.map((e) => store.applyEvent(e, ctx)));
        expect(outcomes.filter((o) => o.status === 'applied')).toHaveLength(1);
        expect((await store.get('carol'))?.renewals).toBe(1);
        expect(await store.eventCount()).toBe(1);
      }),
    );
  });
}
