import { describe, expect, it } from 'vitest';
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
