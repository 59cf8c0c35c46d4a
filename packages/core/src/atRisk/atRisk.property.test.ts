import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/defaultConfig.js';
import { monthlyValueCents } from '../revenue/monthlyValueUsd.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { subscriberArb } from '../testing/index.js';
import { selectAtRisk, type AtRiskQuery } from './atRisk.js';

const NOW = 1_800_000_000_000;
/** Subscribers with distinct ids and prices (with ties), some never charged. */
const populationArb = fc
  .uniqueArray(
    fc.tuple(subscriberArb, fc.option(fc.constantFrom(0.99, 4.99, 9.99, 9.99, 59.99), { nil: null }), fc.constantFrom(7, 30, 365)),
    { selector: ([s]) => s.customer_id, maxLength: 30 },
  )
  .map((rows) =>
    rows.map(([s, price, days]): Subscriber => ({
      ...s,
      revenue: price === null ? null : { price, price_in_purchased_currency: null, currency: 'USD', takehome_percentage: null, store: null, period_ms: days * 86_400_000 },
    })),
  );
const queryArb = fc.record({
  sort: fc.constantFrom('score' as const, 'revenue' as const),
  limit: fc.integer({ min: 1, max: 7 }),
  min_score: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
  state: fc.constantFrom(undefined, 'billing_issue' as const, 'churned' as const),
});

describe('selectAtRisk properties', () => {
  it('pages, in either order, visit every match exactly once, and every page carries the same total', () => {
    fc.assert(
      fc.property(populationArb, queryArb, (subscribers, query) => {
        const everything = selectAtRisk(subscribers, NOW, DEFAULT_CONFIG, { ...query, limit: 1000 } as AtRiskQuery);
        const seen: string[] = [];
        let after: unknown;
        for (let i = 0; i < 100; i++) {
          const page = selectAtRisk(subscribers, NOW, DEFAULT_CONFIG, { ...query, after } as AtRiskQuery);
          expect(page.total).toEqual(everything.total);
          seen.push(...page.items.map((a) => a.subscriber.customer_id));
          if (page.next === null) break;
          after = page.next;
        }
        expect(seen).toEqual(everything.items.map((a) => a.subscriber.customer_id));
        expect(everything.total.subscribers).toBe(everything.items.length);
        const cents = everything.items.reduce((sum, a) => sum + monthlyValueCents(a.subscriber), 0);
        expect(everything.total.monthly_value_usd).toBe(cents / 100);
      }),
    );
  });

  it('sorted by revenue, the monthly values never increase along the list', () => {
    fc.assert(
      fc.property(populationArb, (subscribers) => {
        const values = selectAtRisk(subscribers, NOW, DEFAULT_CONFIG, { sort: 'revenue', limit: 1000, min_score: 0 }).items.map((a) => monthlyValueCents(a.subscriber));
        expect(values).toEqual([...values].sort((a, b) => b - a));
      }),
    );
  });
});
