/**
 * The checks every request passes before any route sees it: a request target that parses and, on
 * HTTP/1.1, a Host header. Node's own Host check answers 400 with no body, so servers turn it off
 * (`EDGE_SERVER_OPTIONS`) and this check answers it in the service's envelope instead.
 */
import type { IncomingMessage, ServerOptions } from 'node:http';
import { edgeProblem, type EdgeProblem } from '../errors/edgeProblem.js';
import { parseRequestTarget, type RequestTarget } from './requestTarget.js';

/**
 * Options for `http.createServer` that leave request-head problems to `checkRequestHead` (so they
 * are answered with a JSON envelope rather than Node's empty 400).
 *
 * @example
 * createServer({ ...EDGE_SERVER_OPTIONS, keepAliveTimeout: 5000 }, listener);
 */
export const EDGE_SERVER_OPTIONS = { requireHostHeader: false } as const satisfies ServerOptions;

/** The request's target, or the problem to answer before any route runs. */
export type CheckedHead = { ok: true; target: RequestTarget } | { ok: false; problem: EdgeProblem };

/**
 * Given a request, returns its parsed target, or the problem to answer: a target that is not a
 * path (400 naming `path`) or an HTTP/1.1 request without a Host header (400 naming `host`, as
 * RFC 9112 requires). Never throws; reads only the request head.
 *
 * @example
 * const head = checkRequestHead(req);
 * if (!head.ok) return answer(head.problem);
 */
export function checkRequestHead(req: IncomingMessage): CheckedHead {
  const parsed = parseRequestTarget(req.url);
  if (!parsed.ok) return { ok: false, problem: edgeProblem('bad_request_target', parsed.message) };
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined) {
    return { ok: false, problem: { ...edgeProblem('bad_request', 'An HTTP/1.1 request needs a Host header'), field: 'host' } };
  }
  return { ok: true, target: parsed.target };
}
