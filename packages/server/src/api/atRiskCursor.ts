/**
 * The at-risk page cursor of GET /api/at-risk: the last item's position (score, customer_id) as
 * base64url JSON. Opaque to clients; keyset paging (the store reads strictly after it), so pages
 * never repeat or skip an item while scores move.
 */
import type { AtRiskPosition } from '@tenure/core';

/** Page size of GET /api/at-risk and POST /api/dispatch when `limit` is not given. */
export const DEFAULT_PAGE_SIZE = 50;

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
 * Given a cursor, returns its position, or undefined when it is not one of ours. Pure.
 *
 * @example
 * decodeCursor(encodeCursor({ score: 82, customer_id: 'user_1' })); // { score: 82, customer_id: 'user_1' }
 */
export function decodeCursor(cursor: string): AtRiskPosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return { score: value[0], customer_id: value[1] };
    }
  } catch {
    // fall through: not a cursor we issued
  }
  return undefined;
}
