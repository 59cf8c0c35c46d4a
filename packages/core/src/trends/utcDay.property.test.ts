import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../config/defaultConfig.js';
import { dayStartOf, lastDays, utcDayOf } from './utcDay.js';

const instant = fc.integer({ min: -2_000_000_000_000, max: 8_000_000_000_000 });

describe('utcDayOf', () => {
  it('is the UTC date Date.toISOString names', () => {
    fc.assert(fc.property(instant, (ms) => {
        expect(utcDayOf(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
      }));
  });

  it('has dayStartOf as its inverse on day starts, and the day contains the instant', () => {
    fc.assert(
      fc.property(instant, (ms) => {
        const start = dayStartOf(utcDayOf(ms));
        expect(start).toBe(ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS));
        expect(utcDayOf(start)).toBe(utcDayOf(ms));
      }),
    );
  });
});

describe('lastDays', () => {
  it('lists consecutive days, oldest first, ending with the instant day', () => {
    expect(lastDays(Date.UTC(2024, 2, 1, 12), 3)).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
  });
});
