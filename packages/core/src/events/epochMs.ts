/**
 * The range of every instant tenure accepts from outside (webhook `*_ms` fields, reported
 * activity): 2000-01-01T00:00:00Z inclusive to 2100-01-01T00:00:00Z exclusive. Real traffic and the
 * simulator's virtual clock live well inside it; a value outside is a mistake or an attack (one
 * `event_timestamp_ms` of 2^53 − 1 would move a subscriber's event clock to the year 287,000 and make
 * every later real event count as older).
 */

/** 2000-01-01T00:00:00Z in epoch ms: the earliest instant accepted (inclusive). */
export const EPOCH_MS_MIN = 946_684_800_000;
/** 2100-01-01T00:00:00Z in epoch ms: the first instant no longer accepted (exclusive). */
export const EPOCH_MS_END = 4_102_444_800_000;

/** The message of an instant out of range or not an integer. */
export const EPOCH_MS_MESSAGE =
  'Expected epoch milliseconds, an integer from 946684800000 (2000-01-01T00:00:00Z) to before 4102444800000 (2100-01-01T00:00:00Z)';

/**
 * Given a value, returns whether it is an accepted instant: an integer number of epoch ms with
 * `EPOCH_MS_MIN <= value < EPOCH_MS_END`. Pure.
 *
 * @example
 * isEpochMs(1_762_000_000_000); // true
 * isEpochMs(Number.MAX_SAFE_INTEGER); // false
 */
export function isEpochMs(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= EPOCH_MS_MIN && value < EPOCH_MS_END;
}
