/**
 * Calendar days in UTC without the `Date` object (the core never reads the clock): the civil-date
 * arithmetic of Howard Hinnant's `days_from_civil` / `civil_from_days`, exact for every epoch
 * millisecond a service meets.
 */
import { DAY_MS } from '../config/defaultConfig.js';

/** A UTC calendar day, `YYYY-MM-DD`. */
export type UtcDay = string;

/**
 * Given epoch ms, returns its UTC calendar day as `YYYY-MM-DD`. Pure.
 *
 * @example
 * utcDayOf(0); // '1970-01-01'
 */
export function utcDayOf(ms: number): UtcDay {
  const z = Math.floor(ms / DAY_MS) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Given a `YYYY-MM-DD` day, returns the epoch ms of its 00:00 UTC. Pure; the inverse of `utcDayOf`
 * on day starts.
 *
 * @example
 * dayStartOf('1970-01-02'); // 86_400_000
 */
export function dayStartOf(day: UtcDay): number {
  const y0 = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  const d = Number(day.slice(8, 10));
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return (era * 146097 + doe - 719468) * DAY_MS;
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
