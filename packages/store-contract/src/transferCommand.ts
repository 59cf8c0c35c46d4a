/**
 * The model-based test's TRANSFER command: the store's answer and state against the model's, and
 * the rule that a transfer moves exactly the senders' persons' histories: each of their events
 * re-keyed to the receiver where it stands (`reKeyToReceiver`), the senders found no more, every
 * other event untouched.
 */
import type fc from 'fast-check';
import { reKeyToReceiver, transferOf, type SubscriberStore } from '@tenure/core';
import { expect } from 'vitest';
import { contextOf, subscriberOf, transferInModel, type StoreModel } from './storeModel.js';
import { collect } from './storeFixtures.js';
import { transferEvent } from './transferContract.js';

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
    const before = [...model.events];
    const personBefore = new Map(model.personOf);
    const expected = transferInModel(model, event);
    expect(await store.applyTransfer(event, contextOf(model))).toEqual(expected);
    const stored = (await collect(store.records())).flatMap((r) => (r.kind === 'event' ? [r.event] : []));
    expect(stored).toEqual(model.events);
    const receiver = expected.status === 'applied' ? expected.receiver : undefined;
    if (receiver !== undefined) {
      const target = personBefore.get(receiver);
      const senders = new Set(transferOf(event).from.flatMap((id) => personBefore.get(id) ?? []).filter((key) => key !== target));
      const moving = new Set<string>();
      before.forEach((e) => {
        if (senders.has(personBefore.get(e.app_user_id)!)) moving.add(e.id);
      });
      // Exactly the senders' persons' events moved, re-keyed; every other event as it was.
      stored.forEach((e, i) => expect(e).toEqual(moving.has(before[i]!.id) ? reKeyToReceiver(before[i]!, receiver) : before[i]));
      for (const sender of transferOf(event).from) if (senders.has(personBefore.get(sender)!)) expect(await store.get(sender)).toBeUndefined();
    }
    for (const id of new Set([...this.from, ...this.to])) expect(await store.get(id)).toEqual(subscriberOf(model, id));
  }
  toString = () => `transfer(${JSON.stringify(this.id)} ${JSON.stringify(this.from)} -> ${JSON.stringify(this.to)})`;
}
