/**
 * ISO 8601 durations (`P1M`, `P1Y`, `P7D`, `PT5M`, `P1W`) and calendar-aware addition in UTC: the
 * billing simulator's subscription periods, trials, grace periods and clock advances, and the
 * standard period (`product_duration`) of an imported export row. A plain number means milliseconds.
 */
import { civilFromDays, daysFromCivil, daysInMonth } from './civilDate.js';

export interface Duration {
  years: number;
  months: number;
  days: number;
  ms: number;
}

const ISO = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * Given an ISO 8601 duration or a number of milliseconds, returns it as a Duration, or null when
 * it is not one (or is zero).
 *
 * @example
 * parseDuration('P1M'); // { years: 0, months: 1, days: 0, ms: 0 }
 */
export function parseDuration(input: string | number): Duration | null {
  if (typeof input === 'number') {
    return Number.isSafeInteger(input) && input > 0 ? { years: 0, months: 0, days: 0, ms: input } : null;
  }
  const m = ISO.exec(input);
  if (m === null || input === 'P' || input.endsWith('T')) return null;
  const n = (i: number) => Number(m[i] ?? 0);
  const d: Duration = {
    years: n(1),
    months: n(2),
    days: n(3) * 7 + n(4),
    ms: Math.round(n(5) * 3_600_000 + n(6) * 60_000 + n(7) * 1000),
  };
  return d.years + d.months + d.days + d.ms > 0 ? d : null;
}

/**
 * Given an instant (epoch ms), a duration and a count, returns the instant `times` durations later.
 * Months and years are calendar months in UTC, clamped to the month's last day (Jan 31 + P1M = Feb 28),
 * always counted from `at` so that cycles do not drift.
 *
 * @example
 * addDuration(Date.UTC(2026, 0, 31), parseDuration('P1M')!, 1) === Date.UTC(2026, 1, 28); // true
 */
export function addDuration(at: number, d: Duration, times = 1): number {
  const months = (d.years * 12 + d.months) * times;
  const extra = d.days * times * 86_400_000 + d.ms * times;
  if (months === 0) return at + extra;
  // Calendar arithmetic on numbers (civilDate.ts): two Date objects per call showed in a
  // month advance's profile (100 k renewals), and their results are the same.
  const days = Math.floor(at / 86_400_000);
  const msOfDay = at - days * 86_400_000;
  const { year, month, day } = civilFromDays(days);
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  return daysFromCivil(y, m, Math.min(day, daysInMonth(y, m))) * 86_400_000 + msOfDay + extra;
}
