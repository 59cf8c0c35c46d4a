import fc from 'fast-check';
import { compareIds } from '../atRisk/compareIds.js';
import { describe, expect, it } from 'vitest';
import type { HandledEvent } from '../events/webhookSchema.js';
import { aliasedEventsArb } from '../testing/index.js';
import { applyEvent } from './applyEvent.js';
import { foldEvents } from './foldEvents.js';
import { foldByIdentity, groupByIdentity, identityIdsOf } from './groupByIdentity.js';
import type { Subscriber } from './subscriber.js';

/** The events with a permutation of them. */
const shuffledArb = aliasedEventsArb.chain((events) => fc.shuffledSubarray(events, { minLength: events.length }).map((shuffled) => [events, shuffled] as const));

/** Groups as comparable data: key → sorted event ids. */
const shape = (groups: Map<string, HandledEvent[]>) =>
  new Map([...groups].map(([key, events]) => [key, events.map((e) => e.id).sort()]));

/**
 * What a store does, one event at a time: an index from every id to its person's key and one
 * record per key; an event naming ids of one person is applied to its record, one naming ids of
 * several (or moving the person's key) re-folds the union of their events.
 */
function applyIncrementally(events: readonly HandledEvent[]): Map<string, Subscriber> {
  const personOf = new Map<string, string>();
  const records = new Map<string, Subscriber>();
  const histories = new Map<string, HandledEvent[]>();
  for (const event of events) {
    const ids = identityIdsOf(event);
    const keys = [...new Set(ids.flatMap((id) => personOf.get(id) ?? []))];
    const union = [...keys.flatMap((k) => histories.get(k)!), event];
    const subscriber = keys.length === 1 ? applyEvent(records.get(keys[0]!), event) : foldEvents(union)!;
    for (const k of keys) {
      records.delete(k);
      histories.delete(k);
    }
    const key = subscriber.customer_id;
    records.set(key, subscriber);
    histories.set(key, union);
    for (const [id, k] of personOf) if (keys.includes(k)) personOf.set(id, key);
    for (const id of ids) personOf.set(id, key);
  }
  return records;
}

describe('groupByIdentity', () => {
  it('groups the same events under the same keys in any delivery order', () => {
    fc.assert(fc.property(shuffledArb, ([events, shuffled]) => {
      expect(shape(groupByIdentity(shuffled))).toEqual(shape(groupByIdentity(events)));
    }));
  });

  it('puts every event in exactly one group, and every id in at most one', () => {
    fc.assert(
      fc.property(aliasedEventsArb, (events) => {
        const groups = groupByIdentity(events);
        expect([...groups.values()].flat().map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
        const owner = new Map<string, string>();
        for (const [key, members] of groups) {
          for (const id of members.flatMap(identityIdsOf)) {
            expect(owner.get(id) ?? key).toBe(key);
            owner.set(id, key);
          }
        }
      }),
    );
  });

  it('keys each group by the app_user_id of its latest event, the customer_id its fold names', () => {
    fc.assert(
      fc.property(aliasedEventsArb, (events) => {
        for (const [key, members] of groupByIdentity(events)) expect(foldEvents(members)!.customer_id).toBe(key);
      }),
    );
  });
});

describe('foldByIdentity', () => {
  it('folds to the same subscribers in any delivery order', () => {
    fc.assert(fc.property(shuffledArb, ([events, shuffled]) => {
      expect(foldByIdentity(shuffled)).toEqual(foldByIdentity(events));
    }));
  });

  it('never loses or double-counts an event: the records\u2019 event counts sum to the events', () => {
    fc.assert(
      fc.property(aliasedEventsArb, (events) => {
        const total = [...foldByIdentity(events).values()].reduce((n, s) => n + s.event_count, 0);
        expect(total).toBe(events.length);
      }),
    );
  });

  it('equals what merging one event at a time gives (the stores\u2019 incremental rule)', () => {
    fc.assert(fc.property(shuffledArb, ([, shuffled]) => {
      expect(applyIncrementally(shuffled)).toEqual(foldByIdentity(shuffled));
    }));
  });

  it('leaves a customer whose events name only its own id exactly as foldEvents does', () => {
    fc.assert(
      fc.property(aliasedEventsArb, (events) => {
        const plain = events.map(({ original_app_user_id: _o, aliases: _a, ...e }): HandledEvent => ({ ...e, app_user_id: 'user_1' }));
        expect([...foldByIdentity(plain).values()]).toEqual([foldEvents(plain)]);
      }),
    );
  });
});

describe('identityIdsOf', () => {
  it('names the app_user_id, the original id and at most MAX_ALIASES aliases, sorted and distinct', () => {
    const ids = identityIdsOf({ app_user_id: 'u', original_app_user_id: 'o', aliases: ['k', 'j', 'i', 'h', 'g', 'f', 'e', 'd', 'c', 'b', 'a', 'u'] });
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'o', 'u']);
  });

  it('is the distinct ids in code point order, its one-or-two-id fast path included (drawn from a few ids, so they repeat)', () => {
    const id = fc.constantFrom('a', 'b', 'B', '\u{1F600}', '\uFF5E', 'user_1');
    fc.assert(
      fc.property(id, fc.option(id, { nil: null }), fc.option(fc.array(id, { maxLength: 3 }), { nil: null }), (app, original, aliases) => {
        const expected = [...new Set([app, ...(original === null ? [] : [original]), ...(aliases ?? [])])].sort(compareIds);
        expect(identityIdsOf({ app_user_id: app, original_app_user_id: original, aliases })).toEqual(expected);
      }),
    );
  });
});
