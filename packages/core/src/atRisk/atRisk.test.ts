import { describe, expect, it } from 'vitest';
import { DAY_MS, DEFAULT_CONFIG, resolveConfig, type Subscriber } from '../index.js';
import { atRiskMinScore, compareAtRisk, selectAtRisk } from './atRisk.js';
import { materializeAtRisk } from './materializeAtRisk.js';
import { makeSubscriber, NOW } from '../../test/subscribers.js';

const T0 = NOW;
const subscriber = (customer_id: string, state: Subscriber['state'], billing_failures = 0, price: number | null = null): Subscriber =>
  makeSubscriber({
    customer_id,
    state,
    billing_failures,
    first_event_at: T0,
    last_activity_at: T0,
    last_event_at: T0,
    revenue: price === null ? null : { price, price_in_purchased_currency: price, currency: 'USD', takehome_percentage: 0.7, store: 'APP_STORE', period_ms: 30 * DAY_MS },
  });

describe('selectAtRisk', () => {
  const all = [
    subscriber('b', 'billing_issue', 1), // 90
    subscriber('a', 'billing_issue', 1), // 90
    subscriber('c', 'churned'), // 100
    subscriber('d', 'pending_cancel'), // 60
    subscriber('e', 'trialing'), // 40
    subscriber('f', 'active'), // 10
  ];

  it('defaults the minimum score to the configured bands.high, not a constant of its own', () => {
    expect(atRiskMinScore({}, DEFAULT_CONFIG)).toBe(60);
    expect(selectAtRisk(all, T0, DEFAULT_CONFIG, { limit: 10 }).items.map((a) => a.subscriber.customer_id)).toEqual(['c', 'a', 'b', 'd']);
    const lower = resolveConfig({ bands: { high: 40 } });
    expect(selectAtRisk(all, T0, lower, { limit: 10 }).items.map((a) => a.subscriber.customer_id)).toEqual(['c', 'a', 'b', 'd', 'e']);
  });

  it('orders by score descending, then customer id, and pages strictly after the position', () => {
    const first = selectAtRisk(all, T0, DEFAULT_CONFIG, { limit: 2 });
    expect(first.items.map((a) => a.subscriber.customer_id)).toEqual(['c', 'a']);
    expect(first.next).toEqual({ score: 90, customer_id: 'a' });
    const second = selectAtRisk(all, T0, DEFAULT_CONFIG, { limit: 2, after: first.next! });
    expect(second.items.map((a) => a.subscriber.customer_id)).toEqual(['b', 'd']);
    expect(second.next).toBeNull();
  });

  it('filters by state and band', () => {
    expect(selectAtRisk(all, T0, DEFAULT_CONFIG, { limit: 10, state: 'billing_issue' }).items).toHaveLength(2);
    expect(selectAtRisk(all, T0, DEFAULT_CONFIG, { limit: 10, band: 'high' }).items.map((a) => a.subscriber.customer_id)).toEqual(['d']);
    expect(selectAtRisk(all, T0, DEFAULT_CONFIG, { limit: 10, band: 'low', min_score: 0 }).items.map((a) => a.subscriber.customer_id)).toEqual(['f']);
  });

  it('assesses at the given instant: inactivity moves a subscriber in without any event', () => {
    const cancelled = subscriber('g', 'pending_cancel');
    expect(selectAtRisk([cancelled], T0, DEFAULT_CONFIG, { limit: 1, min_score: 61 }).items).toHaveLength(0);
    expect(selectAtRisk([cancelled], T0 + 9 * DAY_MS, DEFAULT_CONFIG, { limit: 1, min_score: 61 }).items).toHaveLength(1);
  });
});

describe('selectAtRisk by revenue, with totals', () => {
  const all = [
    subscriber('b', 'billing_issue', 1, 9.99), // 90
    subscriber('a', 'billing_issue', 1, 9.99), // 90
    subscriber('c', 'churned', 0, 4.99), // 100
    subscriber('d', 'pending_cancel', 0, 19.99), // 60
    subscriber('e', 'trialing'), // 40
    subscriber('f', 'active', 0, 99), // 10
  ];

  it('orders by monthly value descending, then customer id, and pages after (value, id)', () => {
    const first = selectAtRisk(all, T0, DEFAULT_CONFIG, { sort: 'revenue', limit: 2 });
    expect(first.items.map((a) => a.subscriber.customer_id)).toEqual(['d', 'a']);
    expect(first.next).toEqual({ monthly_value_usd: 9.99, customer_id: 'a' });
    const second = selectAtRisk(all, T0, DEFAULT_CONFIG, { sort: 'revenue', limit: 2, after: first.next! });
    expect(second.items.map((a) => a.subscriber.customer_id)).toEqual(['b', 'c']);
    expect(second.next).toBeNull();
  });

  it('totals every row matching the filters, not just the page, summed in cents', () => {
    const expected = { subscribers: 4, monthly_value_usd: 44.96 };
    expect(selectAtRisk(all, T0, DEFAULT_CONFIG, { limit: 1 }).total).toEqual(expected);
    expect(selectAtRisk(all, T0, DEFAULT_CONFIG, { sort: 'revenue', limit: 1, after: { monthly_value_usd: 0, customer_id: 'z' } }).total).toEqual(expected);
    expect(selectAtRisk(all, T0, DEFAULT_CONFIG, { limit: 10, state: 'billing_issue' }).total).toEqual({ subscribers: 2, monthly_value_usd: 19.98 });
    expect(selectAtRisk(all, T0, DEFAULT_CONFIG, { limit: 10, band: 'low', min_score: 0 }).total).toEqual({ subscribers: 1, monthly_value_usd: 99 });
  });
});

describe('compareAtRisk', () => {
  it('is score descending, then id ascending', () => {
    expect(compareAtRisk({ score: 90, customer_id: 'z' }, { score: 80, customer_id: 'a' })).toBeLessThan(0);
    expect(compareAtRisk({ score: 80, customer_id: 'a' }, { score: 80, customer_id: 'b' })).toBeLessThan(0);
  });
});

describe('materializeAtRisk', () => {
  it('stores the assessment at now with its top recommendation and when it next changes', () => {
    const { row, assessment } = materializeAtRisk(subscriber('u', 'active'), T0);
    expect(row).toMatchObject({ customer_id: 'u', state: 'active', score: 10, band: 'low', monthly_value_usd: 0, assessed_at: T0, rescore_at: T0 + 9 * DAY_MS });
    expect(materializeAtRisk(subscriber('v', 'active', 0, 99.999), T0).row.monthly_value_usd).toBe(100);
    expect(row.top).toEqual(assessment.recommendations[0]);
  });
});
