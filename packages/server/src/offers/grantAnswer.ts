/** RevenueCat's answer to a grant or a revoke, as the dispatch log and the API show it. */
import { ApiV2Error } from '../backfill/apiV2Client.js';

/** RevenueCat's answer: its status (null when it could not be reached) and body. */
export interface GrantAnswer {
  status: number | null;
  body: unknown;
}

/**
 * Given what a failed API v2 call threw, returns RevenueCat's answer: its status and body, or
 * status null and the error's message when it could not be reached. Pure.
 *
 * @example
 * answerOf(new Error('connect ECONNREFUSED')); // { status: null, body: { message: 'connect ECONNREFUSED' } }
 */
export const answerOf = (error: unknown): GrantAnswer =>
  error instanceof ApiV2Error
    ? { status: error.status, body: error.body ?? { message: error.message } }
    : { status: null, body: { message: error instanceof Error ? error.message : String(error) } };
