/**
 * The at-risk page cursors of GET /api/at-risk: the last item's position as base64url JSON, one
 * shape per order: `[score, customer_id]` by score, `["revenue", cents, customer_id]` by revenue
 * (the monthly value in whole cents). Opaque to clients; keyset paging (the store reads strictly
 * after it), so pages never repeat or skip an item while scores move. A cursor of one order is
 * refused by the other.
 */
import { identifierProblem, MAX_ID_BYTES, type AtRiskPosition, type AtRiskSort, type RevenuePosition } from '@tenure/core';

/** Page size of GET /api/at-risk and POST /api/dispatch when `limit` is not given. */
export const DEFAULT_PAGE_SIZE = 50;

/**
 * The longest cursor the service issues, so the query schema accepts every one of them: the JSON
 * `["revenue",<cents>,"<id>"]` of the longest id and value (the longer of the two shapes), where
 * JSON.stringify writes at most 6 characters per UTF-8 byte (a control character becomes
 * `\u001f`), in base64url without padding (4 characters per 3 bytes).
 *
 * @example
 * MAX_CURSOR_LENGTH; // 2080 for ids of at most 256 bytes
 */
export const MAX_CURSOR_LENGTH = Math.ceil(((JSON.stringify(['revenue', Number.MAX_SAFE_INTEGER, '']).length + 6 * MAX_ID_BYTES) * 4) / 3);

/**
 * Given a position of either order, returns the opaque cursor for it. Pure.
 *
 * @example
 * encodeCursor({ score: 82, customer_id: 'user_1' }); // 'WzgyLCJ1c2VyXzEiXQ'
 */
export function encodeCursor(position: AtRiskPosition | RevenuePosition): string {
  const value =
    'score' in position
      ? [position.score, position.customer_id]
      : ['revenue', Math.round(position.monthly_value_usd * 100), position.customer_id];
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/**
 * Given a cursor and the order of the query, returns its position, or undefined when it is not one
 * we issued for that order (not base64url JSON of the order's shape with an acceptable customer
 * id). Pure.
 *
 * @example
 * decodeCursor(encodeCursor({ score: 82, customer_id: 'user_1' }), 'score'); // { score: 82, customer_id: 'user_1' }
 */
export function decodeCursor(cursor: string, sort: 'score'): AtRiskPosition | undefined;
export function decodeCursor(cursor: string, sort: 'revenue'): RevenuePosition | undefined;
export function decodeCursor(cursor: string, sort: AtRiskSort): AtRiskPosition | RevenuePosition | undefined;
export function decodeCursor(cursor: string, sort: AtRiskSort): AtRiskPosition | RevenuePosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value)) return undefined;
    const id: unknown = value[value.length - 1];
    if (typeof id !== 'string' || identifierProblem(id) !== null) return undefined;
    if (sort === 'score' && value.length === 2 && Number.isInteger(value[0])) return { score: value[0] as number, customer_id: id };
    if (sort === 'revenue' && value.length === 3 && value[0] === 'revenue' && Number.isSafeInteger(value[1]) && (value[1] as number) >= 0) {
      return { monthly_value_usd: (value[1] as number) / 100, customer_id: id };
    }
  } catch {
    // fall through: not a cursor we issued
  }
  return undefined;
}
