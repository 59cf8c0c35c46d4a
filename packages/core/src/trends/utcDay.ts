/**
 * Calendar days in UTC without the `Date` object (the core never reads the clock), on the civil-date
 * arithmetic of `calendar/civilDate.ts`, exact for every epoch millisecond a service meets.
 */
import { DAY_MS } from '../config/defaultConfig.js';
import { civilFromDays, daysFromCivil } from '../calendar/civilDate.js';

/** A UTC calendar day, `YYYY-MM-DD`. */
export type UtcDay = string;

/**
 * Given epoch ms, returns its UTC calendar day as `YYYY-MM-DD`. Pure.
 *
 * @example
 * utcDayOf(0); // '1970-01-01'
 */
export function utcDayOf(ms: number): UtcDay {
  const { year, month, day } = civilFromDays(Math.floor(ms / DAY_MS));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Given a `YYYY-MM-DD` day, returns the epoch ms of its 00:00 UTC. Pure; the inverse of `utcDayOf`
 * on day starts.
 *
 * @example
 * dayStartOf('1970-01-02'); // 86_400_000
 */
export function dayStartOf(day: UtcDay): number {
  return daysFromCivil(Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10))) * DAY_MS;
}

/**
 * Given an instant and a number of days, returns the UTC days ending with the instant's day, oldest
 * first. Pure.
 *
 * @example
 * lastDays(86_400_000, 2); // ['1970-01-01', '1970-01-02']
 */
export function lastDays(now: number, days: number): UtcDay[] {
  const today = Math.floor(now / DAY_MS);
  return Array.from({ length: days }, (_, i) => utcDayOf((today - days + 1 + i) * DAY_MS));
}
