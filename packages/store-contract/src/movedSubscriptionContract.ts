/**
 * The contract of a transfer's later events (docs/rules.md §2, Transfers; issue #10): a TRANSFER
 * moves the subscriptions of the events it moves, so an event of one of them delivered after the
 * transfer (any path: `applyEvent`, `applyEvents`, an import session) is stored re-keyed to the
 * receiver and lands on the receiver's person; the sender is not brought back. An event of a
 * subscription that did not move (the sender's new purchase) stays the sender's. The subscription
 * is wherever the latest transfer moved it (chains), and a repeated transfer id changes nothing.
 */
import fc from 'fast-check';
import { DEFAULT_CONFIG, foldEvents, reKeyToReceiver, type HandledEvent, type HandledEventType, type StoreContext, type SubscriberStore } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { expectAtRiskPage } from './atRiskReference.js';
import { propertyParameters, withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { DAY_MS, T0, buildEvent, collect, listAll } from './storeFixtures.js';
import { transferEvent } from './transferContract.js';

const ctx: StoreContext = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };
const SENDER = 'sender_a';
/** The sender's events name its anonymous id too: a late one must not link it again. */
const senderIds = { original_app_user_id: '$RCAnonymousID:s', aliases: ['$RCAnonymousID:s', SENDER] };

const rekey = (events: readonly HandledEvent[], to: string): HandledEvent[] => events.map((e) => reKeyToReceiver(e, to));
const storedEvents = async (store: SubscriberStore) => (await collect(store.records())).flatMap((r) => (r.kind === 'event' ? [r.event] : []));

/** The sender's subscription otx_a (bought, renewed), and the receiver's own otx_b. */
const senderHistory = [
  buildEvent('INITIAL_PURCHASE', 'ms_e1', SENDER, T0, { ...senderIds, original_transaction_id: 'otx_a', price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS }),
  buildEvent('RENEWAL', 'ms_e2', SENDER, T0 + 30 * DAY_MS, { ...senderIds, original_transaction_id: 'otx_a', price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS }),
];
const receiverHistory = [buildEvent('INITIAL_PURCHASE', 'ms_e3', 'user_b', T0 + DAY_MS, { original_transaction_id: 'otx_b', price: 4.99, expiration_at_ms: T0 + 31 * DAY_MS })];
/** Delivered after the transfer, still under the sender's ids, as RevenueCat may. */
const lateRenewal = buildEvent('RENEWAL', 'ms_e4', SENDER, T0 + 60 * DAY_MS, { ...senderIds, original_transaction_id: 'otx_a', price: 9.99, expiration_at_ms: T0 + 90 * DAY_MS });
const lateCancellation = buildEvent('CANCELLATION', 'ms_e5', SENDER, T0 + 61 * DAY_MS, { ...senderIds, original_transaction_id: 'otx_a', cancel_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 90 * DAY_MS });
const later: StoreContext = { now: T0 + 62 * DAY_MS, config: DEFAULT_CONFIG };

/** Registers the tests of events delivered after a transfer. */
export function describeMovedSubscriptionContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const timeout = options.timeoutMs;

  describe('a transfer moves its subscriptions\u2019 later events too', () => {
    it('lands a late renewal of the moved subscription on the receiver, re-folded, and does not bring the sender back', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents([...senderHistory, ...receiverHistory], ctx);
        await store.applyTransfer(transferEvent('ms_tr1', [SENDER], ['user_b']), ctx);
        const outcome = await store.applyEvent(lateRenewal, later);
        const expected = foldEvents([...receiverHistory, ...rekey([...senderHistory, lateRenewal], 'user_b')])!;
        expect(outcome).toEqual({ status: 'applied', subscriber: expected });
        expect(expected.renewals).toBe(2);
        expect(await store.get('user_b')).toEqual(expected);
        for (const id of [SENDER, '$RCAnonymousID:s']) expect(await store.get(id)).toBeUndefined();
        expect(await store.count()).toBe(1);
        // Stored re-keyed, as the transfer stored the earlier ones: replay and export reproduce it.
        expect((await storedEvents(store)).find((e) => e.id === 'ms_e4')).toEqual(reKeyToReceiver(lateRenewal, 'user_b'));
        for (const query of [{ limit: 10, min_score: 0 }, { limit: 10, min_score: 0, sort: 'revenue' as const }]) {
          expectAtRiskPage(await store.atRisk(query, later), await listAll(store), later, query);
        }
        // A retry of the late event is a duplicate of it, and names the receiver.
        expect(await store.applyEvent(lateRenewal, later)).toEqual({ status: 'duplicate', subscriber: expected });
        expect(await store.replay(later)).toBe(1);
        expect(await store.get('user_b')).toEqual(expected);
      }),
    );

    it('keeps a new subscription of the sender after the transfer the sender\u2019s own', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents([...senderHistory, ...receiverHistory], ctx);
        await store.applyTransfer(transferEvent('ms_tr1', [SENDER], ['user_b']), ctx);
        const receiver = await store.get('user_b');
        const fresh = buildEvent('INITIAL_PURCHASE', 'ms_e6', SENDER, T0 + 45 * DAY_MS, { ...senderIds, original_transaction_id: 'otx_new', price: 59.99, expiration_at_ms: T0 + 410 * DAY_MS });
        const topUp = buildEvent('NON_RENEWING_PURCHASE', 'ms_e7', SENDER, T0 + 46 * DAY_MS, { ...senderIds, price: 1.99 });
        expect(await store.applyEvents([fresh, topUp], later)).toEqual(['applied', 'applied']);
        expect(await store.get(SENDER)).toEqual(foldEvents([fresh, topUp]));
        expect(await store.get('user_b')).toEqual(receiver);
        expect(await store.count()).toBe(2);
      }),
    );

    it('follows the latest transfer of a chain, and ignores a repeated transfer id', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents([...senderHistory, ...receiverHistory], ctx);
        await store.applyTransfer(transferEvent('ms_tr1', [SENDER], ['user_b']), ctx);
        // B to C: the whole of B's person moves, otx_a with it.
        await store.applyTransfer(transferEvent('ms_tr2', ['user_b'], ['user_c']), ctx);
        expect(await store.applyTransfer(transferEvent('ms_tr1', [SENDER], ['user_b']), ctx)).toEqual({ status: 'duplicate' });
        await store.applyEvent(lateRenewal, later);
        const atC = foldEvents(rekey([...receiverHistory, ...senderHistory, lateRenewal], 'user_c'))!;
        expect(await store.get('user_c')).toEqual(atC);
        for (const id of [SENDER, 'user_b']) expect(await store.get(id)).toBeUndefined();
        // C back to the first sender: the subscription is the sender's again, and so is its next event.
        await store.applyTransfer(transferEvent('ms_tr3', ['user_c'], [SENDER]), later);
        const outcome = await store.applyEvent(lateCancellation, later);
        // The cancellation names the receiving id itself: it keeps the ids it links.
        const atSender = foldEvents([...rekey([...receiverHistory, ...senderHistory, lateRenewal], SENDER), lateCancellation])!;
        expect(outcome).toEqual({ status: 'applied', subscriber: atSender });
        expect(await store.get('$RCAnonymousID:s')).toEqual(atSender);
        expect(await store.get('user_c')).toBeUndefined();
        expect(await store.count()).toBe(1);
        expect(await store.replay(later)).toBe(1);
        expect(await store.get(SENDER)).toEqual(atSender);
      }),
    );

    it('routes the late events an import session appends, as applyEvents does', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents([...senderHistory, ...receiverHistory], ctx);
        await store.applyTransfer(transferEvent('ms_tr1', [SENDER], ['user_b']), ctx);
        const session = await store.beginImport(later);
        expect(await session.append([lateRenewal])).toEqual(['applied']);
        expect(await session.append([lateCancellation, lateRenewal])).toEqual(['applied', 'duplicate']);
        await session.finish(later);
        expect(await store.get('user_b')).toEqual(foldEvents([...receiverHistory, ...rekey([...senderHistory, lateRenewal, lateCancellation], 'user_b')]));
        expect(await store.get(SENDER)).toBeUndefined();
        expect(await store.count()).toBe(1);
      }),
    );

    it('the receiver holds the fold of the moved subscriptions\u2019 whole history, however it is split around the transfer and delivered', { timeout }, async () => {
      await fc.assert(
        fc.asyncProperty(splitArb, (split) =>
          withStore(factory, async (store) => {
            const { before, after, own } = eventsOf(split);
            await store.applyEvents([...own, ...before], ctx);
            await store.applyTransfer(transferEvent('ms_trp', [SENDER], ['user_b']), ctx);
            await deliver(store, after, split.path);
            // Moved: the subscriptions of the events stored before the transfer; the rest is the sender's anew.
            const moved = new Set(before.flatMap((e) => (typeof e.original_transaction_id === 'string' ? [e.original_transaction_id] : [])));
            const follows = (e: HandledEvent) => typeof e.original_transaction_id === 'string' && moved.has(e.original_transaction_id);
            expect(await store.get('user_b')).toEqual(foldEvents([...own, ...rekey([...before, ...after.filter(follows)], 'user_b')]));
            const stays = after.filter((e) => !follows(e));
            expect(await store.get(SENDER)).toEqual(foldEvents(stays));
            const senderEvents = stays.length === 0 ? [] : (await store.eventsOf(SENDER, { limit: 500 })).items;
            expect(senderEvents.map((e) => e.id).sort()).toEqual(stays.map((e) => e.id).sort());
          }),
        ),
        propertyParameters(options, Math.min(options.numRuns, 25)),
      );
    });
  });
}

/** Lifecycle events of a subscription, and a few without one. */
const TYPES: HandledEventType[] = ['INITIAL_PURCHASE', 'RENEWAL', 'CANCELLATION', 'UNCANCELLATION', 'BILLING_ISSUE', 'EXPIRATION', 'PRODUCT_CHANGE', 'NON_RENEWING_PURCHASE'];

interface Spec {
  type: HandledEventType;
  day: number;
  subscription: string | null;
}
interface Split {
  before: Spec[];
  after: Spec[];
  own: Spec[];
  path: 'event' | 'batch' | 'import';
}

const specArb = (subscriptions: readonly (string | null)[]) =>
  fc.record({ type: fc.constantFrom(...TYPES), day: fc.integer({ min: 0, max: 60 }), subscription: fc.constantFrom(...subscriptions) });
/** otx_3 never appears before the transfer: its events stay with the sender. */
const splitArb: fc.Arbitrary<Split> = fc.record({
  before: fc.array(specArb(['otx_1', 'otx_2', null]), { minLength: 1, maxLength: 5 }),
  after: fc.array(specArb(['otx_1', 'otx_2', 'otx_3', null]), { maxLength: 6 }),
  own: fc.array(specArb(['otx_r']), { maxLength: 2 }),
  path: fc.constantFrom('event', 'batch', 'import'),
});

/** The split's events: the sender's before and after the transfer (under its ids), and the receiver's own. */
function eventsOf(split: Split): { before: HandledEvent[]; after: HandledEvent[]; own: HandledEvent[] } {
  let n = 0;
  const build = (customer: string, fields: Record<string, unknown>) => (spec: Spec) => {
    const at = T0 + spec.day * DAY_MS;
    return buildEvent(spec.type, `msp_${++n}`, customer, at, { ...fields, original_transaction_id: spec.subscription, price: 9.99, expiration_at_ms: at + 30 * DAY_MS });
  };
  return { before: split.before.map(build(SENDER, senderIds)), after: split.after.map(build(SENDER, senderIds)), own: split.own.map(build('user_b', {})) };
}

/** Delivers `events` one by one, as one batch, or through an import session. */
async function deliver(store: SubscriberStore, events: readonly HandledEvent[], path: Split['path']): Promise<void> {
  if (path === 'event') for (const event of events) await store.applyEvent(event, later);
  else if (path === 'batch') await store.applyEvents(events, later);
  else {
    const session = await store.beginImport(later);
    await session.append(events);
    await session.finish(later);
  }
}
