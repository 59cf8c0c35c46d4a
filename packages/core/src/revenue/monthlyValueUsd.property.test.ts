import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HandledEvent } from '../events/webhookSchema.js';
import { EVENT_PRECEDENCE } from '../subscriber/eventKey.js';
import { foldEvents } from '../subscriber/foldEvents.js';
import { distinctEventsArb } from '../testing/index.js';
import { MAX_PRICE_USD } from './subscriptionRevenue.js';
import { monthlyValueCents, monthlyValueUsd } from './monthlyValueUsd.js';

/**
 * Events of one customer with prices: trials at 0, refunds below 0, charges in whole cents (as
 * billing services report them; a subnormal double scaled by k can become 0 and stop being a charge), none, odd ones.
 */
const pricedEventsArb = distinctEventsArb.chain((events) =>
  fc
    .array(fc.oneof(fc.constant(null), fc.constant(0), fc.integer({ min: -10_000, max: 10_000 }).map((cents) => cents / 100), fc.constantFrom(0.99, 9.99, 59.99, MAX_PRICE_USD, MAX_PRICE_USD * 2)), {
      minLength: events.length,
      maxLength: events.length,
    })
    .map((prices) => events.map((e, i) => ({ ...e, price: prices[i] }) as HandledEvent)),
);

describe('monthlyValueUsd properties', () => {
  it('is finite and non-negative', () => {
    fc.assert(
      fc.property(pricedEventsArb, (events) => {
        const value = monthlyValueUsd(foldEvents(events)!);
        expect(Number.isFinite(value)).toBe(true);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(monthlyValueCents(foldEvents(events)!)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('scales linearly with the price', () => {
    fc.assert(
      fc.property(pricedEventsArb, fc.double({ min: 0.01, max: 1, noNaN: true }), (events, k) => {
        const scaled = events.map((e) => ({ ...e, price: typeof e.price === 'number' ? e.price * k : e.price }) as HandledEvent);
        const base = monthlyValueUsd(foldEvents(events)!);
        // Scaling keeps which events charged (sign kept; k ≤ 1 keeps prices within MAX_PRICE_USD), so the same event sets the price.
        const inRange = events.every((e) => typeof e.price !== 'number' || e.price <= MAX_PRICE_USD || e.price * k > MAX_PRICE_USD);
        fc.pre(inRange);
        expect(monthlyValueUsd(foldEvents(scaled)!)).toBeCloseTo(base * k, 6);
      }),
    );
  });

  it('does not depend on the order events arrive in', () => {
    fc.assert(
      fc.property(
        pricedEventsArb.chain((events) => fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length }))),
        ([events, permuted]) => {
          expect(foldEvents(permuted)!.revenue).toEqual(foldEvents(events)!.revenue);
          expect(monthlyValueUsd(foldEvents(permuted)!)).toBe(monthlyValueUsd(foldEvents(events)!));
        },
      ),
    );
  });

  it('comes from the latest charge (a purchase or renewal with a price) whenever there is one', () => {
    const charged = (e: HandledEvent) =>
      (e.type === 'INITIAL_PURCHASE' || e.type === 'RENEWAL') && typeof e.price === 'number' && e.price > 0 && e.price <= MAX_PRICE_USD;
    const later = (a: HandledEvent, b: HandledEvent) =>
      a.event_timestamp_ms !== b.event_timestamp_ms
        ? a.event_timestamp_ms > b.event_timestamp_ms
        : EVENT_PRECEDENCE[a.type] !== EVENT_PRECEDENCE[b.type]
          ? EVENT_PRECEDENCE[a.type] > EVENT_PRECEDENCE[b.type]
          : a.id > b.id;
    fc.assert(
      fc.property(pricedEventsArb, (events) => {
        const charges = events.filter(charged);
        fc.pre(charges.length > 0);
        const latest = charges.reduce((a, b) => (later(b, a) ? b : a));
        expect(foldEvents(events)!.revenue?.price).toBe(latest.price);
      }),
    );
  });
});
