/** The webhook's body limit; reading, UTF-8 and JSON checks are the shared HTTP edge's. */
import { DEFAULT_BODY_LIMIT } from '@tenure/http-edge';

/**
 * The webhook (and API) body limit: 1 MB; larger bodies are answered 413.
 *
 * @example
 * WEBHOOK_BODY_LIMIT; // 1048576
 */
export const WEBHOOK_BODY_LIMIT: number = DEFAULT_BODY_LIMIT;
