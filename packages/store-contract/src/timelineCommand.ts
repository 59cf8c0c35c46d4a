/**
 * The model-based test's timeline read: pages through one id's `eventsOf` and checks that the
 * pages visit every event the model holds for that id's person exactly once, newest first, with
 * cursors that continue where the previous page ended (also after transfers re-keyed events).
 */
import type fc from 'fast-check';
import { compareTimeline, cursorOf, type SubscriberStore, type TimelineCursor } from '@tenure/core';
import { expect } from 'vitest';
import type { StoreModel } from './storeModel.js';

/** Reads a customer's whole timeline in pages of `limit`. */
export class EventsOfCommand implements fc.AsyncCommand<StoreModel, SubscriberStore> {
  constructor(
    readonly customer: string,
    readonly limit: number,
  ) {}
  check = () => true;
  async run(model: StoreModel, store: SubscriberStore): Promise<void> {
    // The person's events: any of its ids names its whole timeline (docs/rules.md §2, aliases).
    const key = model.personOf.get(this.customer);
    const expected = model.events
      .filter((e) => key !== undefined && model.personOf.get(e.app_user_id) === key)
      .sort((a, b) => compareTimeline(cursorOf(a), cursorOf(b)));
    const seen = [];
    let before: TimelineCursor | undefined;
    for (let pages = 0; pages <= expected.length; pages++) {
      const page = await store.eventsOf(this.customer, before === undefined ? { limit: this.limit } : { limit: this.limit, before });
      expect(page.items.length).toBeLessThanOrEqual(this.limit);
      seen.push(...page.items);
      if (page.next === null) break;
      expect(page.next).toEqual(cursorOf(page.items[page.items.length - 1]!));
      before = page.next;
    }
    expect(seen).toEqual(expected);
  }
  toString = () => `eventsOf(${JSON.stringify(this.customer)}, ${this.limit})`;
}
