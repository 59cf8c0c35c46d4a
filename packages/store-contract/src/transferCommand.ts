/**
 * The model-based test's TRANSFER command: the store's answer and state against the model's, and
 * the rule that a transfer moves exactly one subscription's history: every stored event kept once,
 * the senders left with none, every other customer's events untouched (`transferHistory`).
 */
import type fc from 'fast-check';
import { transferHistory, transferOf, type HandledEvent, type SubscriberStore } from '@tenure/core';
import { expect } from 'vitest';
import { contextOf, transferInModel, type StoreModel } from './storeModel.js';
import { collect } from './storeFixtures.js';
import { transferEvent } from './transferContract.js';

const byCustomer = (events: readonly HandledEvent[]): Map<string, HandledEvent[]> => {
  const histories = new Map<string, HandledEvent[]>();
  for (const e of events) histories.set(e.app_user_id, [...(histories.get(e.app_user_id) ?? []), e]);
  return histories;
};

const idsOf = (histories: ReadonlyMap<string, readonly HandledEvent[]>) =>
  new Map([...histories].map(([customer, events]) => [customer, events.map((e) => e.id).sort()]));

/** Transfers from some customers to others, under an id that may repeat. */
export class TransferCommand implements fc.AsyncCommand<StoreModel, SubscriberStore> {
  constructor(
    readonly id: string,
    readonly from: readonly string[],
    readonly to: readonly string[],
  ) {}
  check = () => true;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    const event = transferEvent(this.id, this.from, this.to, model.now);
    const before = byCustomer(model.events);
    const expected = transferInModel(model, event);
    expect(await store.applyTransfer(event, contextOf(model))).toEqual(expected);
    const stored = (await collect(store.records())).flatMap((r) => (r.kind === 'event' ? [r.event] : []));
    expect(stored).toEqual(model.events);
    if (expected.status === 'applied' && expected.receiver !== undefined) {
      // Exactly the core's transferHistory: each event once, senders empty, the others untouched.
      expect(idsOf(byCustomer(stored))).toEqual(idsOf(transferHistory(before, transferOf(event))));
      for (const sender of transferOf(event).from) expect(await store.get(sender)).toBeUndefined();
    }
    for (const id of new Set([...this.from, ...this.to])) expect(await store.get(id)).toEqual(model.subscribers.get(id));
  }
  toString = () => `transfer(${JSON.stringify(this.id)} ${JSON.stringify(this.from)} -> ${JSON.stringify(this.to)})`;
}
