import { describe, expect, it } from 'vitest';
import { STORES } from '../events/webhookSchema.js';
import { churnChanceText, formatChurnPercent, formatHorizon, formatMonthlyUsd, revenueFacts, STORE_LABELS, storeLabel } from './alertText.js';

describe('formatMonthlyUsd', () => {
  it.each([
    [9.99, '$9.99/mo'],
    [8.3325, '$8.33/mo'],
    [0.005, '$0.01/mo'],
    [0, '$0.00/mo'],
    [1234.5, '$1,234.50/mo'],
    [1_000_000, '$1,000,000.00/mo'],
    [999.999, '$1,000.00/mo'],
  ])('shows %d as %s (whole cents, thousands separated, no locale)', (value, text) => {
    expect(formatMonthlyUsd(value)).toBe(text);
  });
});

describe('storeLabel', () => {
  it('names every documented store', () => {
    expect(STORES.map(storeLabel)).toEqual(STORES.map((store) => STORE_LABELS[store]));
    expect(storeLabel('APP_STORE')).toBe('App Store');
    expect(storeLabel('PLAY_STORE')).toBe('Google Play');
  });

  it('keeps a store it does not know as sent, and is not fooled by inherited names', () => {
    expect(storeLabel('NEW_STORE')).toBe('NEW_STORE');
    expect(storeLabel('toString')).toBe('toString');
    expect(storeLabel('__proto__')).toBe('__proto__');
  });
});

describe('revenueFacts', () => {
  it('gives the revenue at risk and the store, each only when known', () => {
    expect(revenueFacts({ monthly_value_usd: 9.99, store: 'APP_STORE' })).toEqual([
      ['Revenue at risk', '$9.99/mo'],
      ['Store', 'App Store'],
    ]);
    expect(revenueFacts({ monthly_value_usd: 9.99, store: null })).toEqual([['Revenue at risk', '$9.99/mo']]);
    expect(revenueFacts({ monthly_value_usd: null, store: 'STRIPE' })).toEqual([['Store', 'Stripe']]);
    expect(revenueFacts({})).toEqual([]);
  });
});

describe('formatChurnPercent', () => {
  it.each([
    [0, 'about 0 %'],
    [0.004, 'under 1 %'],
    [0.005, 'about 1 %'],
    [0.3125, 'about 31 %'],
    [0.994, 'about 99 %'],
    [0.996, 'over 99 %'],
    [1, 'about 100 %'],
  ])('shows %d as %s (never a rounded 0 or 100 that is not)', (p, text) => {
    expect(formatChurnPercent(p)).toBe(text);
  });
});

describe('formatHorizon', () => {
  it.each([
    [30 * 86_400_000, '30 days'],
    [86_400_000, '1 day'],
    [3_600_000, '1 hour'],
    [36 * 3_600_000, '36 hours'],
    [86_400_000 + 1, '1.0 days'],
  ])('shows %d ms as %s', (ms, text) => {
    expect(formatHorizon(ms)).toBe(text);
  });
});

describe('churnChanceText', () => {
  it('reads the calibration at the score, within its horizon', () => {
    const calibration = { horizon_ms: 14 * 86_400_000, samples: 10, positives: 3, probabilities: Array.from({ length: 101 }, (_, s) => s / 100) };
    expect(churnChanceText(calibration, 72)).toBe('about 72 % chance of churning within 14 days');
  });
});
