/**
 * Schema version 9's upgrade (occurrences keyed by store too), as both SQL stores test it: the same
 * two customers written under version 7's keys (`<type>:<transaction_id>`), the keys the upgrade
 * must leave, and what the upgraded store must answer. Each store's test writes the history its own
 * way and reads its own keys back; the rest is here, once.
 */
import { foldEvents, type HandledEvent, type StoreContext, type SubscriberStore } from '@tenure/core';
import { expect } from 'vitest';
import { DAY_MS, T0, buildEvent } from './storeFixtures.js';

/** alice's App Store purchase and renewal. */
const ALICE: readonly HandledEvent[] = [
  buildEvent('INITIAL_PURCHASE', 'e1', 'alice', T0, { store: 'APP_STORE', transaction_id: 't1', price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS }),
  buildEvent('RENEWAL', 'e2', 'alice', T0 + 30 * DAY_MS, { store: 'APP_STORE', transaction_id: 't2', price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS }),
];

/** bob's store-less top-up, an odd store's purchase, and a Play Store renewal sharing alice's renewal's transaction id. */
const BOB: readonly HandledEvent[] = [
  buildEvent('NON_RENEWING_PURCHASE', 'e3', 'bob', T0, { store: null, transaction_id: 't9', price: 4.99 }),
  buildEvent('INITIAL_PURCHASE', 'e4', 'bob', T0 + DAY_MS, { store: 'ODD:STORE', transaction_id: 't4', price: 1.99, expiration_at_ms: T0 + 31 * DAY_MS }),
  // A Play Store renewal sharing alice's App Store transaction id, stored before version 3 and
  // left without a key then (a copy of 'RENEWAL:t2'): a transaction of its own now.
  buildEvent('RENEWAL', 'e5', 'bob', T0 + 31 * DAY_MS, { store: 'PLAY_STORE', transaction_id: 't2', price: 1.99, expiration_at_ms: T0 + 61 * DAY_MS }),
];

/** The history each test writes under version 7's keys, per customer. */
export const UPGRADE_HISTORY: readonly (readonly [customer: string, events: readonly HandledEvent[]])[] = [
  ['alice', ALICE],
  ['bob', BOB],
];

/** Each event's occurrence key as version 7 stored it (null: none). */
export const VERSION_7_KEYS: Readonly<Record<string, string | null>> = { e1: 'INITIAL_PURCHASE:t1', e2: 'RENEWAL:t2', e3: 'NON_RENEWING_PURCHASE:t9', e4: 'INITIAL_PURCHASE:t4', e5: null };

/** The events table's (id, occurrence) in storage order after the upgrade. */
export const UPGRADED_KEYS = [
  { id: 'e1', occurrence: 'INITIAL_PURCHASE:APP_STORE:t1' },
  { id: 'e2', occurrence: 'RENEWAL:APP_STORE:t2' },
  { id: 'e3', occurrence: 'NON_RENEWING_PURCHASE::t9' },
  { id: 'e4', occurrence: 'INITIAL_PURCHASE:ODD%3ASTORE:t4' },
  { id: 'e5', occurrence: 'RENEWAL:PLAY_STORE:t2' },
] as const;

/**
 * Given a store opened on the upgraded history, checks what it answers: alice folds as before; a
 * redelivery of a stored purchase under a new id is a quiet duplicate; another customer's delivery of
 * alice's renewal is a duplicate naming its holder; the same transaction id in another store is a new
 * transaction.
 */
export async function expectUpgradedOccurrences(store: SubscriberStore, ctx: StoreContext): Promise<void> {
  expect(await store.get('alice')).toEqual(foldEvents(ALICE));
  const before = await store.get('alice');
  // The webhook's copy of a stored purchase, under a new event id: one transaction, quietly.
  expect(await store.applyEvent({ ...ALICE[0]!, id: 'rc-t1' }, ctx)).toEqual({ status: 'duplicate', subscriber: before });
  expect(await store.applyEvent({ ...BOB[0]!, id: 'rc-t9' }, ctx)).toEqual({ status: 'duplicate', subscriber: await store.get('bob') });
  // Another customer's delivery of alice's App Store renewal: a duplicate that names its holder.
  expect(await store.applyEvent({ ...ALICE[1]!, id: 'rc-t2', app_user_id: 'carol', original_app_user_id: 'carol' }, ctx)).toEqual({
    status: 'duplicate',
    subscriber: undefined,
    heldBy: { key: 'RENEWAL:APP_STORE:t2', customer: 'alice' },
  });
  // The same transaction id in another store is another transaction.
  const play = buildEvent('INITIAL_PURCHASE', 'rc-play-t1', 'alice', T0 + 2 * DAY_MS, { store: 'PLAY_STORE', transaction_id: 't1', price: 9.99, expiration_at_ms: T0 + 32 * DAY_MS });
  expect(await store.applyEvent(play, ctx)).toMatchObject({ status: 'applied' });
  expect(await store.eventCount()).toBe(6);
  expect(await store.get('alice')).toEqual(foldEvents([...ALICE, play]));
}
