/** Request ids: reuse a sane incoming `x-request-id` (from a proxy), else make one. */
import { randomUUID } from 'node:crypto';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/**
 * Given the incoming `x-request-id` header value, returns it when it is short and plain, else a new
 * UUID (so a client cannot inject arbitrary text into the logs).
 *
 * @example
 * requestIdFrom(req.headers['x-request-id']);
 */
export function requestIdFrom(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
}
