/**
 * Telling an extended period from the period a row bought. The export has no SUBSCRIPTION_EXTENDED:
 * an extension shows only as a later `end_time`, and `product_duration` (the standard period) is
 * what tells the two apart. Pure (parsed durations are remembered, the same for the same text).
 */
import { addDuration, civilFromDays, DAY_MS, daysFromCivil, daysInMonth, parseDuration, type Duration } from '@tenure/core';
import type { ExportRow } from './exportRow.js';

/** Durations read so far: a file names a few (`P1M`, `P1Y`), so each is parsed once and shared by its rows. */
const durations = new Map<string, Duration | null>();

/**
 * Given a `product_duration` cell, returns the ISO 8601 duration it holds (shared, frozen), or null
 * when it is empty or not one.
 *
 * @example
 * productDurationOf('P1M'); // { years: 0, months: 1, days: 0, ms: 0 }
 */
export function productDurationOf(text: string): Duration | null {
  if (text === '' || text.length > 40) return null;
  let d = durations.get(text);
  if (d === undefined) {
    d = parseDuration(text);
    if (d !== null) Object.freeze(d);
    if (durations.size < 256) durations.set(text, d);
  }
  return d;
}

/**
 * An end later than the standard period by at most this is not read as an extension: stores charge
 * a renewal up to a day early (the period then looks a day long), and an extension of a day or
 * less looks the same.
 */
const EXTENSION_TOLERANCE_MS = DAY_MS;

/**
 * Given a period's start, its standard duration and its standard end (`start + duration`), returns
 * the latest instant the period can end without an extension. Stores keep a subscription's day of the month (its anchor): a period that
 * starts on the last day of a short month (Feb 28, anchored on the 31st) ends on the anchor's day of
 * the next month (Mar 31), up to three days after `start + P1M`; the export does not say the
 * anchor, so a start on a month's last day may end up to that month's last day.
 */
function latestStandardEnd(start: number, duration: Duration, end: number): number {
  if (duration.years === 0 && duration.months === 0) return end;
  const day = Math.floor(start / DAY_MS);
  const started = civilFromDays(day);
  if (started.day !== daysInMonth(started.year, started.month)) return end;
  const endDay = Math.floor(end / DAY_MS);
  const ends = civilFromDays(endDay);
  return (daysFromCivil(ends.year, ends.month, daysInMonth(ends.year, ends.month)) - endDay) * DAY_MS + end;
}

/**
 * Given a row, returns the end of the standard period it bought (`start_time` + `product_duration`,
 * in calendar months in UTC) when its `end_time` is later than any standard end (see
 * `latestStandardEnd`) by more than a day: the rest of the period is an extension
 * (SUBSCRIPTION_EXTENDED), which the export shows only as the new end. Null when there is none, or
 * it cannot be told: no duration, a one-time purchase, a trial or an introductory period (the
 * duration is the standard period's, not theirs). Pure.
 *
 * @example
 * extendedFrom({ ...row, product_duration: parseDuration('P1M'), start_time: jan1, end_time: feb8 }); // Feb 1
 */
export function extendedFrom(row: ExportRow): number | null {
  if (!row.is_auto_renewable || row.is_trial_period || row.is_in_intro_offer_period || row.product_duration === null || row.end_time === null) return null;
  const standard = addDuration(row.start_time, row.product_duration);
  return row.end_time - latestStandardEnd(row.start_time, row.product_duration, standard) <= EXTENSION_TOLERANCE_MS ? null : standard;
}
