import { fixture } from '@tenure/testkit';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../config/defaultConfig.js';
import { parseWebhook } from '../events/parseWebhook.js';
import type { HandledEvent } from '../events/webhookSchema.js';
import { foldEvents } from '../subscriber/foldEvents.js';
import { ev } from '../../test/events.js';
import { makeSubscriber } from '../../test/subscribers.js';
import { monthlyValueCents, monthlyValueUsd, periodMonths } from './monthlyValueUsd.js';

const T = 1_764_000_000_000;
const handled = (name: string, overrides: Record<string, unknown> = {}): HandledEvent => {
  const parsed = parseWebhook(fixture(name, overrides));
  if (!parsed.ok || !parsed.value.handled) throw new Error(`fixture ${name} is not a handled event`);
  return parsed.value.event;
};

describe('revenue on the subscriber', () => {
  it('keeps price, price in purchased currency, currency, takehome, store and period of a real renewal', () => {
    const s = foldEvents([handled('renewal', { currency: 'EUR', price_in_purchased_currency: 9.49 })])!;
    expect(s.revenue).toEqual({
      price: 9.99,
      price_in_purchased_currency: 9.49,
      currency: 'EUR',
      takehome_percentage: 0.85,
      store: 'APP_STORE',
      period_ms: 1767184000000 - 1764591998000,
    });
    expect(monthlyValueUsd(s)).toBe(9.99);
  });

  it('a trial at price 0 counts 0, and its conversion counts the converted price', () => {
    const trial = ev('INITIAL_PURCHASE', T, { period_type: 'TRIAL', price: 0, purchased_at_ms: T, expiration_at_ms: T + 7 * DAY_MS });
    expect(monthlyValueUsd(foldEvents([trial])!)).toBe(0);
    const conversion = ev('RENEWAL', T + 7 * DAY_MS, { is_trial_conversion: true, price: 59.99, purchased_at_ms: T + 7 * DAY_MS, expiration_at_ms: T + 372 * DAY_MS });
    expect(monthlyValueUsd(foldEvents([trial, conversion])!)).toBeCloseTo(59.99 / 12, 10);
  });

  it('a refund (negative price) and a churn keep the value that is lost', () => {
    const paid = ev('INITIAL_PURCHASE', T, { price: 9.99, purchased_at_ms: T, expiration_at_ms: T + 30 * DAY_MS });
    const refund = ev('CANCELLATION', T + DAY_MS, { cancel_reason: 'CUSTOMER_SUPPORT', price: -9.99 });
    const expired = ev('EXPIRATION', T + 2 * DAY_MS, { price: 0 });
    const s = foldEvents([paid, refund, expired])!;
    expect(s.state).toBe('churned');
    expect(monthlyValueUsd(s)).toBe(9.99);
  });

  it('ignores a top-up price and prices above MAX_PRICE_USD', () => {
    const paid = ev('INITIAL_PURCHASE', T, { price: 4.99, purchased_at_ms: T, expiration_at_ms: T + 7 * DAY_MS });
    const topUp = ev('NON_RENEWING_PURCHASE', T + DAY_MS, { price: 99 });
    const odd = ev('RENEWAL', T + 2 * DAY_MS, { price: 1e300 });
    expect(foldEvents([paid, topUp, odd])!.revenue?.price).toBe(4.99);
  });

  it('reads the period paid for from the charge, not from a later event naming the end an extension moved', () => {
    const renewal = ev('RENEWAL', T, { price: 9.99, purchased_at_ms: T, expiration_at_ms: T + 31 * DAY_MS });
    const extension = ev('SUBSCRIPTION_EXTENDED', T + DAY_MS, { price: 9.99, purchased_at_ms: T, expiration_at_ms: T + 91 * DAY_MS });
    const optOut = ev('CANCELLATION', T + 2 * DAY_MS, { cancel_reason: 'UNSUBSCRIBE', price: 9.99, purchased_at_ms: T, expiration_at_ms: T + 91 * DAY_MS });
    const s = foldEvents([optOut, extension, renewal])!;
    expect(s).toMatchObject({ state: 'pending_cancel', period_ends_at: T + 91 * DAY_MS });
    expect(s.revenue?.period_ms).toBe(31 * DAY_MS);
    expect(monthlyValueUsd(s)).toBe(9.99); // not a quarter's: the 60 days added are not paid for
    // With no charge in the history (it starts mid-period), the latest other lifecycle event counts.
    expect(foldEvents([optOut])!.revenue?.price).toBe(9.99);
    // A later charge at another price replaces it.
    const next = ev('RENEWAL', T + 91 * DAY_MS, { price: 12.99, purchased_at_ms: T + 91 * DAY_MS, expiration_at_ms: T + 122 * DAY_MS });
    expect(foldEvents([next, optOut, renewal])!.revenue?.price).toBe(12.99);
  });

  it('counts a price with an unknown period as one month', () => {
    expect(monthlyValueUsd(foldEvents([ev('RENEWAL', T, { price: 12 })])!)).toBe(12);
  });

  it('a record stored before revenue existed is worth 0', () => {
    expect(monthlyValueUsd(makeSubscriber())).toBe(0);
  });
});

describe('periodMonths', () => {
  it('reads a measured period as the nearest billing period', () => {
    expect(periodMonths(7 * DAY_MS)).toBeCloseTo(7 / 30.4375, 12);
    expect(periodMonths(28 * DAY_MS)).toBe(1);
    expect(periodMonths(31 * DAY_MS)).toBe(1);
    expect(periodMonths(92 * DAY_MS)).toBe(3);
    expect(periodMonths(181 * DAY_MS)).toBe(6);
    expect(periodMonths(366 * DAY_MS)).toBe(12);
    expect(periodMonths(null)).toBe(1);
  });
});

describe('monthlyValueCents', () => {
  it('rounds to whole cents', () => {
    const s = foldEvents([ev('RENEWAL', T, { price: 99.99, purchased_at_ms: T, expiration_at_ms: T + 365 * DAY_MS })])!;
    expect(monthlyValueUsd(s)).toBeCloseTo(8.3325, 10);
    expect(monthlyValueCents(s)).toBe(833);
  });
});
