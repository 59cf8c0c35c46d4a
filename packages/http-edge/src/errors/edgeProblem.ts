/**
 * The problems the edge itself answers (before any route runs), and the formatter through which each
 * service gives them its own public error shape.
 */

/**
 * Every problem the edge detects, with its HTTP status: a total table.
 *
 * @example
 * EDGE_STATUS.headers_too_large; // 431
 */
export const EDGE_STATUS = {
  bad_request: 400,
  bad_request_target: 400,
  invalid_utf8: 400,
  invalid_json: 400,
  payload_too_large: 413,
  request_timeout: 408,
  expectation_failed: 417,
  headers_too_large: 431,
} as const satisfies Record<string, number>;

export type EdgeProblemCode = keyof typeof EDGE_STATUS;

/** One problem found at the edge. `field` names the offending input (`body`, `path`, `headers`) or is null. */
export interface EdgeProblem {
  code: EdgeProblemCode;
  status: (typeof EDGE_STATUS)[EdgeProblemCode];
  message: string;
  field: string | null;
}

/**
 * Given an edge problem, returns the JSON body a service answers it with (its own envelope). The
 * status is the problem's; the formatter only shapes the body. Must not throw.
 */
export type ErrorFormatter = (problem: EdgeProblem) => unknown;

const MESSAGES: Record<EdgeProblemCode, string> = {
  bad_request: 'The request could not be parsed as HTTP/1.1',
  bad_request_target: 'The request target is not a valid path',
  invalid_utf8: 'The request body is not valid UTF-8',
  invalid_json: 'The request body is not valid JSON',
  payload_too_large: 'The request body is larger than the limit',
  request_timeout: 'The request took too long to arrive',
  expectation_failed: 'The only expectation supported is "Expect: 100-continue"',
  headers_too_large: 'The request headers are too large',
};

const FIELDS: Record<EdgeProblemCode, string | null> = {
  bad_request: null,
  bad_request_target: 'path',
  invalid_utf8: 'body',
  invalid_json: 'body',
  payload_too_large: 'body',
  request_timeout: null,
  expectation_failed: 'expect',
  headers_too_large: 'headers',
};

/**
 * Given a problem code (and optionally a message), returns the problem with its status, default
 * message and field. Pure.
 *
 * @example
 * edgeProblem('invalid_utf8'); // { code: 'invalid_utf8', status: 400, message: '…', field: 'body' }
 */
export function edgeProblem(code: EdgeProblemCode, message: string = MESSAGES[code]): EdgeProblem {
  return { code, status: EDGE_STATUS[code], message, field: FIELDS[code] };
}
