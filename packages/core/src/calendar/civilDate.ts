/**
 * Proleptic Gregorian dates from and to days since 1970-01-01, on numbers only (Howard Hinnant's
 * `civil_from_days` / `days_from_civil`): what `utcDayOf`, `dayStartOf` and the billing simulator's
 * calendar months are built on, without a `Date` object (the core never reads the clock, and two
 * `Date` objects per renewal showed in a month advance's profile).
 */

/** A calendar date: `month` 1–12, `day` 1–31. */
export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/**
 * Given whole days since 1970-01-01 (negative before), returns the calendar date. Pure.
 *
 * @example
 * civilFromDays(0); // { year: 1970, month: 1, day: 1 }
 * civilFromDays(-1); // { year: 1969, month: 12, day: 31 }
 */
export function civilFromDays(days: number): CivilDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/**
 * Given a year, a month (1–12) and a day, returns the days since 1970-01-01; the inverse of
 * `civilFromDays` for valid dates. Pure.
 *
 * @example
 * daysFromCivil(1970, 1, 2); // 1
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * Given a year and a month (1–12), returns its number of days. Pure.
 *
 * @example
 * daysInMonth(2024, 2); // 29
 */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : DAYS_IN_MONTH[month - 1]!;
