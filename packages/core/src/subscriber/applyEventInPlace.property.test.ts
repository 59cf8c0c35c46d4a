import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aliasedEventsArb, distinctEventsArb, multiSubscriptionEventsArb } from '../testing/index.js';
import { applyEvent, applyEventInPlace } from './applyEvent.js';
import type { Subscriber } from './subscriber.js';

/** Any history: one subscription, several, several ids of one person. */
const historyArb = fc.oneof(distinctEventsArb, multiSubscriptionEventsArb, aliasedEventsArb);

describe('applyEventInPlace', () => {
  it('leaves, event after event, exactly the record the pure reducer builds, in the one object it was given', () => {
    fc.assert(
      fc.property(historyArb, (events) => {
        let pure: Subscriber | undefined;
        let owned: Subscriber | undefined;
        for (const event of events) {
          pure = applyEvent(pure, event);
          if (owned === undefined) owned = applyEvent(undefined, event);
          else {
            const same = owned;
            owned = applyEventInPlace(owned, event);
            expect(owned).toBe(same);
          }
          expect(owned).toEqual(pure);
        }
      }),
    );
  });

  it('writes only the fields of the record: nothing nested in it, which records before it share, changes', () => {
    fc.assert(
      fc.property(historyArb, fc.nat(), (events, at) => {
        const cut = at % events.length;
        let earlier: Subscriber | undefined;
        for (const event of events.slice(0, cut + 1)) earlier = applyEvent(earlier, event);
        const snapshot = structuredClone(earlier);
        // A shallow copy shares every key, list and subscription of the earlier record.
        let owned: Subscriber = { ...earlier! };
        for (const event of events.slice(cut + 1)) owned = applyEventInPlace(owned, event);
        expect(earlier).toEqual(snapshot);
        let pure: Subscriber | undefined;
        for (const event of events) pure = applyEvent(pure, event);
        expect(owned).toEqual(pure);
      }),
    );
  });
});
