/**
 * API v1's instants: ISO 8601 in UTC, whole seconds written without a fraction, as the billing
 * service writes them. Written from numbers (the core's `civilFromDays`), not through a `Date` and
 * `toISOString().replace(…)`: a customer info answer writes a dozen or more of them, and they were a
 * sixth of its cost.
 */
import { civilFromDays } from '@tenure/core';

const DAY_MS = 86_400_000;
/** 9999-12-31T23:59:59.999Z: the last instant `toISOString` writes with a four-digit year. */
const LAST_FOUR_DIGIT_YEAR = 253_402_300_799_999;

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/**
 * Given epoch milliseconds, returns API v1's ISO 8601 text (`2026-01-01T00:00:00Z`; milliseconds
 * only when there are some, so nothing the SDK compares is rounded).
 *
 * @example
 * isoV1(Date.UTC(2026, 0, 1)); // '2026-01-01T00:00:00Z'
 */
export function isoV1(ms: number): string {
  // Outside 1970–9999 (or not whole milliseconds), what `Date` writes, as before.
  if (!Number.isInteger(ms) || ms < 0 || ms > LAST_FOUR_DIGIT_YEAR) return new Date(ms).toISOString().replace('.000Z', 'Z');
  const days = Math.floor(ms / DAY_MS);
  const { year, month, day } = civilFromDays(days);
  const inDay = ms - days * DAY_MS;
  const seconds = Math.floor(inDay / 1000);
  const millis = inDay - seconds * 1000;
  const time = `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
  const date = `${year < 1000 ? `000${year}`.slice(-4) : year}-${two(month)}-${two(day)}`;
  return millis === 0 ? `${date}T${time}Z` : `${date}T${time}.${three(millis)}Z`;
}

/** The same, null for null. */
export const isoV1OrNull = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : isoV1(ms));
