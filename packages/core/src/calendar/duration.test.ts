import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDuration, parseDuration } from './duration.js';

describe('parseDuration', () => {
  it('reads ISO 8601 durations', () => {
    expect(parseDuration('P1Y2M3D')).toEqual({ years: 1, months: 2, days: 3, ms: 0 });
    expect(parseDuration('P1W')).toEqual({ years: 0, months: 0, days: 7, ms: 0 });
    expect(parseDuration('PT1H30M5S')).toEqual({ years: 0, months: 0, days: 0, ms: 5_405_000 });
  });
  it('reads a positive number as milliseconds', () => {
    expect(parseDuration(250)?.ms).toBe(250);
  });
  it('rejects zero, negatives and garbage', () => {
    for (const bad of ['P', 'PT', 'P0D', '1 month', 'P1.5M', 0, -5, 1.5]) expect(parseDuration(bad)).toBeNull();
  });
});

describe('addDuration', () => {
  it('adds calendar months in UTC, clamped to the last day of the month', () => {
    const jan31 = Date.UTC(2026, 0, 31);
    expect(addDuration(jan31, parseDuration('P1M')!)).toBe(Date.UTC(2026, 1, 28));
    expect(addDuration(jan31, parseDuration('P1M')!, 2)).toBe(Date.UTC(2026, 2, 31));
  });
  it('adds years, days and time', () => {
    expect(addDuration(Date.UTC(2026, 0, 1), parseDuration('P1Y')!)).toBe(Date.UTC(2027, 0, 1));
    expect(addDuration(Date.UTC(2026, 0, 1), parseDuration('P1DT1H')!)).toBe(Date.UTC(2026, 0, 2, 1));
  });
});

describe('addDuration against Date', () => {
  // The calendar arithmetic Date does (setUTCFullYear clamps nothing, so the day is clamped first).
  const reference = (at: number, d: { years: number; months: number; days: number; ms: number }, times: number) => {
    const date = new Date(at);
    const months = (d.years * 12 + d.months) * times;
    if (months !== 0) {
      const y = date.getUTCFullYear();
      const mo = date.getUTCMonth() + months;
      const lastDay = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
      date.setUTCFullYear(y, mo, Math.min(date.getUTCDate(), lastDay));
    }
    return date.getTime() + d.days * times * 86_400_000 + d.ms * times;
  };
  it('gives the instant Date arithmetic gives, for any instant from 1970 to 2100 and any duration', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }),
        fc.record({ years: fc.nat(30), months: fc.nat(40), days: fc.nat(400), ms: fc.nat(86_400_000 * 3) }),
        fc.integer({ min: 1, max: 60 }),
        (at, d, times) => {
          expect(addDuration(at, d, times)).toBe(reference(at, d, times));
        },
      ),
      { numRuns: 5000 },
    );
  });
  it('keeps month ends and leap days right', () => {
    for (const at of [Date.UTC(2024, 0, 31, 13), Date.UTC(2024, 1, 29), Date.UTC(2000, 1, 29, 23, 59), Date.UTC(2099, 11, 31, 23, 59, 59, 999), 0]) {
      for (let n = 1; n <= 50; n++) expect(addDuration(at, { years: 0, months: 1, days: 0, ms: 0 }, n)).toBe(reference(at, { years: 0, months: 1, days: 0, ms: 0 }, n));
    }
  });
});
