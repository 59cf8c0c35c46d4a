import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transferOf } from '../events/identityOf.js';
import type { HandledEvent } from '../events/webhookSchema.js';
import { distinctEventsArb } from '../testing/index.js';
import { foldEvents } from './foldEvents.js';
import { transferHistory } from './transferHistory.js';

const IDS = ['u_a', 'u_b', 'u_c', 'u_d'];

/** Distinct events spread over a few customers, and a transfer between some of them. */
const scenarioArb = fc.tuple(
  distinctEventsArb.chain((events) =>
    fc.array(fc.constantFrom(...IDS), { minLength: events.length, maxLength: events.length }).map((owners) =>
      events.map((e, i): HandledEvent => ({ ...e, app_user_id: owners[i]! })),
    ),
  ),
  fc.subarray(IDS, { minLength: 1 }),
  fc.subarray(IDS, { minLength: 1 }),
);

const byCustomer = (events: readonly HandledEvent[]) => {
  const map = new Map<string, HandledEvent[]>();
  for (const e of events) map.set(e.app_user_id, [...(map.get(e.app_user_id) ?? []), e]);
  return map;
};

describe('transferHistory', () => {
  it('moves exactly the senders\u2019 histories to the receiver: every event kept once, senders empty, others untouched', () => {
    fc.assert(
      fc.property(scenarioArb, ([events, from, to]) => {
        const transfer = transferOf({ transferred_from: from, transferred_to: to });
        const before = byCustomer(events);
        const after = transferHistory(before, transfer);
        const ids = [...after.values()].flat().map((e) => e.id).sort();
        expect(ids).toEqual(events.map((e) => e.id).sort());
        for (const [customer, list] of after) for (const e of list) expect(e.app_user_id).toBe(customer);
        const receiver = transfer.to[0];
        if (receiver === undefined) {
          expect(after).toEqual(before);
          return;
        }
        for (const sender of transfer.from) expect(after.has(sender)).toBe(false);
        for (const [customer, list] of before) {
          if (customer !== receiver && !transfer.from.includes(customer)) expect(after.get(customer)).toBe(list);
        }
        // The receiver folds to what one customer with all those events would: renewals and failures add up.
        const moved = [...(before.get(receiver) ?? []), ...transfer.from.flatMap((s) => before.get(s) ?? [])];
        const folded = foldEvents(after.get(receiver) ?? []);
        expect(folded?.renewals ?? 0).toBe(moved.filter((e) => e.type === 'RENEWAL').length);
        expect(folded?.event_count ?? 0).toBe(moved.length);
      }),
    );
  });

  it('does not change its input', () => {
    fc.assert(
      fc.property(scenarioArb, ([events, from, to]) => {
        const before = byCustomer(events);
        const copy = structuredClone(before);
        transferHistory(before, transferOf({ transferred_from: from, transferred_to: to }));
        expect(before).toEqual(copy);
      }),
    );
  });
});
