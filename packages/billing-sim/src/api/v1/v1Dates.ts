/** API v1's instants: ISO 8601 in UTC, whole seconds written without a fraction, as the billing service writes them. */

/**
 * Given epoch milliseconds, returns API v1's ISO 8601 text (`2026-01-01T00:00:00Z`; milliseconds
 * only when there are some, so nothing the SDK compares is rounded).
 *
 * @example
 * isoV1(Date.UTC(2026, 0, 1)); // '2026-01-01T00:00:00Z'
 */
export const isoV1 = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The same, null for null. */
export const isoV1OrNull = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : isoV1(ms));
