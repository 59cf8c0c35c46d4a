/** The test clock's constants, one copy for every package's tests. */

/** One minute, hour and day in milliseconds. */
export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/**
 * The instant the tests start from and the webhook fixtures' first event time:
 * 2025-11-01T12:26:40Z, a plain number so failures print readably.
 */
export const T0 = 1_762_000_000_000;
