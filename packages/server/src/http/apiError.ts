/**
 * The one error body of every route, `{ error: { code, message, field? } }`, and the table from
 * error code to HTTP status (the edge's only place where statuses for errors are chosen).
 */
import type { EdgeProblem, EdgeProblemCode } from '@tenure/http-edge';

/**
 * Every error code the service answers with, and its HTTP status: a total table.
 *
 * @example
 * ERROR_STATUS.payload_too_large; // 413
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  request_timeout: 408,
  payload_too_large: 413,
  expectation_failed: 417,
  unsupported_media_type: 415,
  headers_too_large: 431,
  internal_error: 500,
  bad_gateway: 502,
  unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The one error body of every route. `field` names the offending input (dotted path) when there is one. */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; field?: string };
}

/** What every framework-free handler returns: a status and a JSON body; adapters only send it. */
export interface HandlerResult<B = unknown> {
  status: number;
  body: B;
}

/**
 * Given a code, a message and optionally a field, returns the handler result for that error. Pure.
 *
 * @example
 * apiError('not_found', 'Unknown customer "u1"'); // { status: 404, body: { error: { ... } } }
 */
export function apiError(code: ErrorCode, message: string, field?: string): HandlerResult<ApiErrorBody> {
  const error: ApiErrorBody['error'] = field === undefined ? { code, message } : { code, message, field };
  return { status: ERROR_STATUS[code], body: { error } };
}

/** The shared edge's problems to this service's codes (a total table). */
const CODE_BY_EDGE_PROBLEM = {
  bad_request: 'invalid_request',
  bad_request_target: 'invalid_request',
  invalid_utf8: 'invalid_request',
  invalid_json: 'invalid_json',
  payload_too_large: 'payload_too_large',
  request_timeout: 'request_timeout',
  expectation_failed: 'expectation_failed',
  headers_too_large: 'headers_too_large',
} as const satisfies Record<EdgeProblemCode, ErrorCode>;

/**
 * Given a problem found by the shared HTTP edge (bad request line or target, headers too large,
 * body not UTF-8, too large), returns this service's result for it: `{ error: { code, message,
 * field? } }` with the problem's status. Pure.
 *
 * @example
 * edgeError(edgeProblem('invalid_utf8')); // { status: 400, body: { error: { code: 'invalid_request', ..., field: 'body' } } }
 */
export function edgeError(problem: EdgeProblem): HandlerResult<ApiErrorBody> {
  return apiError(CODE_BY_EDGE_PROBLEM[problem.code], problem.message, problem.field ?? undefined);
}
