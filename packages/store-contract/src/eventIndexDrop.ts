/**
 * Schema version 10's upgrade (the events' (customer_id, seq) index dropped), as both SQL stores
 * test it: one anonymous customer's history written under version 9, and what the upgraded store
 * must still fold the same way through the timeline's index: a replay, and a login that merges two
 * persons and re-folds every stored event. Each store's test writes the history and reads its
 * indexes its own way; the rest is here, once.
 */
import { foldEvents, type HandledEvent, type StoreContext, type SubscriberStore } from '@tenure/core';
import { expect } from 'vitest';
import { DAY_MS, T0, buildEvent } from './storeFixtures.js';

/** The history each test writes under version 9, all of it the anonymous id's ('anon'). */
export const ANON_HISTORY: readonly HandledEvent[] = [
  buildEvent('INITIAL_PURCHASE', 'e1', 'anon', T0, { original_transaction_id: 't1', transaction_id: 't1' }),
  buildEvent('RENEWAL', 'e2', 'anon', T0 + 30 * DAY_MS, { original_transaction_id: 't1', transaction_id: 't2' }),
];

/** Asserts that the upgraded store replays `ANON_HISTORY` to its fold, and re-folds it with a login naming both ids. */
export async function expectRefoldsWithoutSeqIndex(store: SubscriberStore, ctx: StoreContext): Promise<void> {
  expect(await store.replay(ctx)).toBe(1);
  expect(await store.get('anon')).toEqual(foldEvents(ANON_HISTORY));
  // The person logs in: an event naming both ids moves the record to the identified id, re-folded from every stored event.
  const login = buildEvent('RENEWAL', 'e3', 'user_1', T0 + 60 * DAY_MS, { original_transaction_id: 't1', transaction_id: 't3', original_app_user_id: 'anon', aliases: ['anon', 'user_1'] });
  expect((await store.applyEvent(login, ctx)).status).toBe('applied');
  const merged = await store.get('user_1');
  expect(merged).toEqual(foldEvents([...ANON_HISTORY, login]));
  expect(merged?.renewals).toBe(2);
}
