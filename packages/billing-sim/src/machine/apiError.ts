/**
 * The billing service's API v2 error model: error types, the status each maps to, and the envelope
 * `{ object: "error", type, param, message, retryable, doc_url }`.
 */

/** Error types of the billing service's API v2. */
export type ApiErrorType =
  | 'parameter_error'
  | 'invalid_request'
  | 'resource_already_exists'
  | 'resource_missing'
  | 'idempotency_error'
  | 'rate_limit_error'
  | 'authentication_error'
  | 'authorization_error'
  | 'unprocessable_entity_error'
  | 'resource_locked_error'
  | 'server_error'
  | 'teapot';

/**
 * The status each error type is answered with (the real service's mapping; `teapot` is 418).
 *
 * @example
 * STATUS_BY_ERROR_TYPE.idempotency_error; // 409
 */
export const STATUS_BY_ERROR_TYPE = {
  parameter_error: 400,
  invalid_request: 400,
  authentication_error: 401,
  authorization_error: 403,
  resource_missing: 404,
  resource_already_exists: 409,
  idempotency_error: 409,
  teapot: 418,
  unprocessable_entity_error: 422,
  resource_locked_error: 423,
  rate_limit_error: 429,
  server_error: 500,
} as const satisfies Record<ApiErrorType, number>;

const RETRYABLE = new Set<ApiErrorType>(['rate_limit_error', 'resource_locked_error', 'server_error']);

/** A failed operation, before it becomes an HTTP response. */
export interface ApiError {
  type: ApiErrorType;
  message: string;
  param: string | null;
}

/** The error body the billing service sends. */
export interface ErrorEnvelope {
  object: 'error';
  type: ApiErrorType;
  param: string | null;
  message: string;
  retryable: boolean;
  doc_url: string;
  backoff_ms?: number;
}

/** An operation's outcome: a value, or an API error. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** Makes a failed Result. */
export const fail = (type: ApiErrorType, message: string, param: string | null = null): { ok: false; error: ApiError } => ({
  ok: false,
  error: { type, message, param },
});

/** Makes a successful Result. */
export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

/**
 * Given an API error, returns its status and envelope as the billing service answers it.
 *
 * @example
 * toErrorResponse({ type: 'resource_missing', message: 'Resource not found', param: null }).status; // 404
 */
export function toErrorResponse(error: ApiError): { status: number; body: ErrorEnvelope } {
  const retryable = RETRYABLE.has(error.type);
  const body: ErrorEnvelope = {
    object: 'error',
    type: error.type,
    param: error.param,
    message: error.message,
    retryable,
    doc_url: `https://errors.rev.cat/${error.type.replaceAll('_', '-')}`,
    ...(retryable ? { backoff_ms: 1000 } : {}),
  };
  return { status: STATUS_BY_ERROR_TYPE[error.type], body };
}
