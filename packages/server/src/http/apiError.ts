/**
 * The one error body of every route, `{ error: { code, message, field? } }`, and the table from
 * error code to HTTP status (the edge's only place where statuses for errors are chosen).
 */

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
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
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
