/**
 * The opaque cursor of `GET /api/subscribers/:customer_id/events`: a timeline position (event time,
 * event id) as base64url JSON, so an id with any character survives a query string.
 */
import { identifierProblem, MAX_ID_BYTES, type TimelineCursor } from '@tenure/core';

/** The longest cursor `encodeTimelineCursor` makes (an id of `MAX_ID_BYTES`, each byte escaped at worst). */
export const MAX_TIMELINE_CURSOR_LENGTH = Math.ceil(((JSON.stringify([Number.MAX_SAFE_INTEGER, '']).length + 6 * MAX_ID_BYTES) * 4) / 3);

/**
 * Given a timeline position, returns its cursor. Pure.
 *
 * @example
 * encodeTimelineCursor({ event_timestamp_ms: 1, id: 'evt_1' }); // 'WzEsImV2dF8xIl0'
 */
export const encodeTimelineCursor = (position: TimelineCursor): string =>
  Buffer.from(JSON.stringify([position.event_timestamp_ms, position.id]), 'utf8').toString('base64url');

/**
 * Given a cursor, returns the position it encodes, or undefined for a text this service did not issue. Pure.
 *
 * @example
 * decodeTimelineCursor(encodeTimelineCursor(position)); // position
 */
export function decodeTimelineCursor(cursor: string): TimelineCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [ms, id] = value as unknown[];
    if (!Number.isSafeInteger(ms) || typeof id !== 'string' || identifierProblem(id) !== null) return undefined;
    return { event_timestamp_ms: ms as number, id };
  } catch {
    return undefined;
  }
}
