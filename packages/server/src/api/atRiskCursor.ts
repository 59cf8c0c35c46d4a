/**
 * The at-risk page cursor of GET /api/at-risk: the last item's position (score, customer_id) as
 * base64url JSON. Opaque to clients; keyset paging (the store reads strictly after it), so pages
 * never repeat or skip an item while scores move.
 */
import { identifierProblem, MAX_ID_BYTES, type AtRiskPosition } from '@tenure/core';

/** Page size of GET /api/at-risk and POST /api/dispatch when `limit` is not given. */
export const DEFAULT_PAGE_SIZE = 50;

/**
 * The longest cursor the service issues, so the query schema accepts every one of them: the JSON
 * `[100,"<id>"]` of the longest id, where JSON.stringify writes at most 6 characters per UTF-8 byte
 * (a control character becomes `\u001f`), in base64url without padding (4 characters per 3 bytes).
 *
 * @example
 * MAX_CURSOR_LENGTH; // 2059 for ids of at most 256 bytes
 */
export const MAX_CURSOR_LENGTH = Math.ceil(((JSON.stringify([100, '']).length + 6 * MAX_ID_BYTES) * 4) / 3);

/**
 * Given a position, returns the opaque cursor for it. Pure.
 *
 * @example
 * encodeCursor({ score: 82, customer_id: 'user_1' }); // 'WzgyLCJ1c2VyXzEiXQ'
 */
export function encodeCursor(position: AtRiskPosition): string {
  return Buffer.from(JSON.stringify([position.score, position.customer_id]), 'utf8').toString('base64url');
}

/**
 * Given a cursor, returns its position, or undefined when it is not one of ours (not base64url
 * JSON of an integer score and an acceptable customer id). Pure.
 *
 * @example
 * decodeCursor(encodeCursor({ score: 82, customer_id: 'user_1' })); // { score: 82, customer_id: 'user_1' }
 */
export function decodeCursor(cursor: string): AtRiskPosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isInteger(value[0]) &&
      typeof value[1] === 'string' &&
      identifierProblem(value[1]) === null
    ) {
      return { score: value[0] as number, customer_id: value[1] };
    }
  } catch {
    // fall through: not a cursor we issued
  }
  return undefined;
}
