import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../config/defaultConfig.js';
import { civilFromDays, daysFromCivil, daysInMonth } from '../calendar/civilDate.js';
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

describe('civilFromDays and daysFromCivil', () => {
  const day = fc.integer({ min: -25_000_000, max: 25_000_000 }); // about ±68,000 years

  it('name the date Date.UTC names, and are each other inverse', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000, max: 100_000_000 }), (days) => {
        const date = new Date(days * DAY_MS);
        expect(civilFromDays(days)).toEqual({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
      }),
    );
    fc.assert(
      fc.property(day, (days) => {
        const { year, month, day: d } = civilFromDays(days);
        expect(daysFromCivil(year, month, d)).toBe(days);
        expect(d).toBeLessThanOrEqual(daysInMonth(year, month));
      }),
    );
  });

  it("counts each month's days as the calendar does, February by the Gregorian leap rule", () => {
    expect([1900, 2000, 2023, 2024].map((y) => daysInMonth(y, 2))).toEqual([28, 29, 28, 29]);
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9000 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        expect(daysInMonth(y, m)).toBe(new Date(Date.UTC(y, m, 0)).getUTCDate()); // day 0 of the next month: the last of this one
      }),
    );
  });
});
