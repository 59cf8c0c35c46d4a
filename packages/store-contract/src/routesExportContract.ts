/**
 * The contract of moved subscriptions across an export (docs/storage.md, Transfers): a store's
 * routes (`movedSubscriptions`) written after its records as `tenure export` writes them, and
 * restored by an import (`restoreMovedSubscriptions`), give a store that routes a later event of a
 * moved subscription exactly as the original does. Restoring keeps the latest route of a
 * subscription, changes nothing when repeated, and never moves an event already stored.
 */
import {
  DEFAULT_CONFIG,
  parseExportLine,
  reKeyToReceiver,
  toExportLine,
  toMovedSubscriptionLine,
  type HandledEvent,
  type MovedSubscription,
  type StoreContext,
  type SubscriberStore,
} from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { expectSameStores } from './importContract.js';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { DAY_MS, T0, buildEvent, collect } from './storeFixtures.js';
import { transferEvent } from './transferContract.js';

const ctx: StoreContext = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };
const later: StoreContext = { now: T0 + 62 * DAY_MS, config: DEFAULT_CONFIG };
const SENDER = 'rx_sender';
const senderIds = { original_app_user_id: '$RCAnonymousID:rx', aliases: ['$RCAnonymousID:rx', SENDER] };

/** The sender's subscription otx_rx1 and top-up, the receiver's own otx_rx2, a bystander's otx_rx3. */
const history = [
  buildEvent('INITIAL_PURCHASE', 'rx_e1', SENDER, T0, { ...senderIds, original_transaction_id: 'otx_rx1', price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS }),
  buildEvent('RENEWAL', 'rx_e2', SENDER, T0 + 30 * DAY_MS, { ...senderIds, original_transaction_id: 'otx_rx1', price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS }),
  buildEvent('NON_RENEWING_PURCHASE', 'rx_e3', SENDER, T0 + 2 * DAY_MS, { ...senderIds, price: 1.99 }),
  buildEvent('INITIAL_PURCHASE', 'rx_e4', 'rx_b', T0 + DAY_MS, { original_transaction_id: 'otx_rx2', price: 4.99, expiration_at_ms: T0 + 31 * DAY_MS }),
  buildEvent('INITIAL_PURCHASE', 'rx_e5', 'rx_other', T0 + 3 * DAY_MS, { original_transaction_id: 'otx_rx3', price: 2.99, expiration_at_ms: T0 + 33 * DAY_MS }),
];
/** Delivered after the export, still under the sender's ids, as RevenueCat may. */
const lateRenewal = buildEvent('RENEWAL', 'rx_e6', SENDER, T0 + 60 * DAY_MS, { ...senderIds, original_transaction_id: 'otx_rx1', price: 9.99, expiration_at_ms: T0 + 90 * DAY_MS });
const lateCancellation = buildEvent('CANCELLATION', 'rx_e7', 'rx_b', T0 + 61 * DAY_MS, { original_transaction_id: 'otx_rx2', cancel_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 90 * DAY_MS });
const IDS = [SENDER, '$RCAnonymousID:rx', 'rx_b', 'rx_c', 'rx_other'];

/** A store's export as `tenure export` writes it: each record's line, then each route's, as JSON text. */
async function exportLines(store: SubscriberStore): Promise<string[]> {
  const records = (await collect(store.records())).map(toExportLine);
  const routes = (await collect(store.movedSubscriptions())).map(toMovedSubscriptionLine);
  return [...records, ...routes].map((line) => JSON.stringify(line));
}

/**
 * Imports lines in file order as `tenure import` does: events in a batch, activity per customer,
 * routes restored once the events before them are stored (so they route only the events after them).
 */
async function importLines(store: SubscriberStore, lines: readonly string[], at: StoreContext): Promise<void> {
  let events: HandledEvent[] = [];
  let routes: MovedSubscription[] = [];
  const activity: [string, number][] = [];
  const flush = async () => {
    if (events.length > 0) await store.applyEvents(events, at);
    if (routes.length > 0) await store.restoreMovedSubscriptions(routes);
    events = [];
    routes = [];
  };
  for (const text of lines) {
    const parsed = parseExportLine(JSON.parse(text));
    if (!parsed.ok) throw new Error(`bad line ${text}`);
    const value = parsed.value;
    if (value.record === null) {
      if (!('moved_subscription' in value)) continue;
      if (events.length > 0) await flush();
      routes.push(value.moved_subscription);
    } else if (value.record.kind === 'event') {
      if (routes.length > 0) await flush();
      events.push(value.record.event);
    } else activity.push([value.record.customer_id, value.record.at]);
  }
  await flush();
  for (const [customer, reported] of activity) await store.recordActivity(customer, reported, at);
}

/** Registers the tests of moved subscriptions through an export and an import. */
export function describeRoutesExportContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const timeout = options.timeoutMs;

  describe('moved subscriptions survive an export and an import', () => {
    it('a store imported from an export routes a late event of a moved subscription as the original does', { timeout }, () =>
      withStore(factory, (original) =>
        withStore(factory, async (imported) => {
          await original.applyEvents(history, ctx);
          await original.recordActivity('rx_b', T0 + 36 * DAY_MS, ctx);
          await original.applyTransfer(transferEvent('rx_tr1', [SENDER], ['rx_b']), ctx);
          // A chain: the latest transfer of otx_rx1 (and of otx_rx2) is to rx_c.
          await original.applyTransfer(transferEvent('rx_tr2', ['rx_b'], ['rx_c']), ctx);
          const routes: MovedSubscription[] = [
            { original_transaction_id: 'otx_rx1', receiver: 'rx_c' },
            { original_transaction_id: 'otx_rx2', receiver: 'rx_c' },
          ];
          expect(await collect(original.movedSubscriptions())).toEqual(routes);

          const lines = await exportLines(original);
          expect(lines.slice(-2)).toEqual(routes.map((route) => JSON.stringify({ moved_subscription: route })));
          await importLines(imported, lines, ctx);
          expect(await collect(imported.movedSubscriptions())).toEqual(routes);
          await expectSameStores(imported, original, IDS, ctx);
          // Importing the same file again changes nothing.
          await importLines(imported, lines, ctx);
          expect(await collect(imported.movedSubscriptions())).toEqual(routes);
          await expectSameStores(imported, original, IDS, ctx);

          // Both route the late events, under the sender's (or the first receiver's) ids, to rx_c.
          for (const store of [original, imported]) {
            expect(await store.applyEvents([lateRenewal, lateCancellation], later)).toEqual(['applied', 'applied']);
            for (const id of [SENDER, '$RCAnonymousID:rx', 'rx_b']) expect(await store.get(id)).toBeUndefined();
            const stored = (await collect(store.records())).flatMap((r) => (r.kind === 'event' ? [r.event] : []));
            expect(stored.slice(-2)).toEqual([reKeyToReceiver(lateRenewal, 'rx_c'), reKeyToReceiver(lateCancellation, 'rx_c')]);
          }
          expect((await imported.get('rx_c'))?.renewals).toBe(2);
          await expectSameStores(imported, original, IDS, later);
        }),
      ),
    );

    it('restoring keeps the latest route of a subscription, and moves no event already stored', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents(history, ctx);
        const before = await collect(store.records());
        const sender = await store.get(SENDER);
        await store.restoreMovedSubscriptions([
          { original_transaction_id: 'otx_rx1', receiver: 'rx_x' },
          { original_transaction_id: 'otx_rx3', receiver: 'rx_b' },
          { original_transaction_id: 'otx_rx1', receiver: 'rx_y' },
        ]);
        // A later call replaces too; a route already held changes nothing.
        await store.restoreMovedSubscriptions([{ original_transaction_id: 'otx_rx3', receiver: 'rx_c' }]);
        await store.restoreMovedSubscriptions([{ original_transaction_id: 'otx_rx1', receiver: 'rx_y' }]);
        await store.restoreMovedSubscriptions([]);
        expect(await collect(store.movedSubscriptions())).toEqual([
          { original_transaction_id: 'otx_rx1', receiver: 'rx_y' },
          { original_transaction_id: 'otx_rx3', receiver: 'rx_c' },
        ]);
        // Nothing stored moved, and no record was created for a receiver.
        expect(await collect(store.records())).toEqual(before);
        expect(await store.get(SENDER)).toEqual(sender);
        for (const id of ['rx_x', 'rx_y', 'rx_c']) expect(await store.get(id)).toBeUndefined();
        expect(await store.count()).toBe(3);
        // A later event of the subscription goes to the latest receiver; the sender keeps what it had.
        await store.applyEvent(lateRenewal, later);
        expect(await store.get('rx_y')).toEqual(expect.objectContaining({ customer_id: 'rx_y', renewals: 1 }));
        expect(await store.get(SENDER)).toEqual(sender);
      }),
    );
  });
}
