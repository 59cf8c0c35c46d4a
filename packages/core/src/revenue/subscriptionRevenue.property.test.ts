import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HandledEvent } from '../events/webhookSchema.js';
import { revenueOf, type SubscriptionRevenue } from './subscriptionRevenue.js';

const T = 1_700_000_000_000;
const nullable = <V>(arb: fc.Arbitrary<V>) => fc.option(arb, { nil: null });

/** A renewal that charged: a positive price and any of the other revenue fields, -0 included. */
const chargeArb: fc.Arbitrary<HandledEvent> = fc
  .record({
    // Few values each, so that two draws often agree on all fields but one.
    price: fc.constantFrom(4.99, 9.99),
    price_in_purchased_currency: nullable(fc.constantFrom(0, -0, 1.5, 9.99)),
    currency: nullable(fc.constantFrom('USD', 'EUR')),
    takehome_percentage: nullable(fc.constantFrom(0, -0, 0.7, 0.85)),
    store: nullable(fc.constantFrom('APP_STORE', 'PLAY_STORE')),
    days: fc.constantFrom(0, 30),
  })
  .map(({ days, ...fields }) => ({
    type: 'RENEWAL',
    id: 'e',
    app_user_id: 'u',
    event_timestamp_ms: T,
    purchased_at_ms: T,
    expiration_at_ms: T + days * 86_400_000,
    ...fields,
  }) as HandledEvent);

describe('revenueOf with the revenue a record holds', () => {
  it('returns the held object when the event says the same, field by field (Object.is), else a new one equal to what it reads', () => {
    // The held revenue is read from the event itself or from a copy with one field drawn again, so
    // that the two agree on all fields but (at most) one: 0 against -0 included.
    const tweakArb = fc.oneof(
      fc.constant({}),
      fc.record({ price_in_purchased_currency: nullable(fc.constantFrom(0, -0, 1.5)) }),
      fc.record({ takehome_percentage: nullable(fc.constantFrom(0, -0, 0.7)) }),
      fc.record({ currency: nullable(fc.constantFrom('USD', 'EUR')) }),
      fc.record({ store: nullable(fc.constantFrom('APP_STORE', 'PLAY_STORE')) }),
      fc.record({ price: fc.constantFrom(4.99, 9.99) }),
      fc.record({ expiration_at_ms: fc.constantFrom(T, T + 30 * 86_400_000) }),
    );
    fc.assert(
      fc.property(chargeArb, tweakArb, (event, tweak) => {
        const fresh = revenueOf(event)!;
        const held = revenueOf({ ...event, ...tweak } as HandledEvent)!;
        const kept = revenueOf(event, held);
        const same = (Object.keys(fresh) as (keyof SubscriptionRevenue)[]).every((k) => Object.is(fresh[k], held[k]));
        expect(kept === held).toBe(same);
        for (const k of Object.keys(fresh) as (keyof SubscriptionRevenue)[]) expect(Object.is(kept![k], fresh[k])).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps an equal held revenue as it is, and never returns one for an event that charged nothing', () => {
    fc.assert(
      fc.property(chargeArb, (event) => {
        const held = revenueOf(event)!;
        expect(revenueOf(event, held)).toBe(held);
        expect(revenueOf({ ...event, price: 0 } as HandledEvent, held)).toBeNull();
      }),
    );
  });
});
