/**
 * Node's own answers to requests it cannot parse (400 bad request line, 431 headers too large, 408
 * timeout) and to an `Expect` header other than `100-continue` (417) carry no body; these handlers
 * answer them with the service's JSON envelope instead.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { edgeProblem, type EdgeProblem, type EdgeProblemCode, type ErrorFormatter } from '../errors/edgeProblem.js';
import { sendJson } from './sendJson.js';

/** llhttp and Node error codes to the problem answered (a table; anything else is a 400). */
const PROBLEM_BY_CODE: Record<string, EdgeProblemCode> = {
  HPE_HEADER_OVERFLOW: 'headers_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
  ERR_HTTP_HEADERS_TIMEOUT: 'request_timeout',
};

/** Codes where the peer is gone: nothing to answer. */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * Given a problem and the service's formatter, returns the raw HTTP/1.1 response bytes: status
 * line, JSON content type and length, `connection: close`, then the envelope. Pure.
 *
 * @example
 * rawErrorResponse(edgeProblem('headers_too_large'), (p) => ({ error: p })).startsWith('HTTP/1.1 431'); // true
 */
export function rawErrorResponse(problem: EdgeProblem, format: ErrorFormatter): string {
  const body = JSON.stringify(format(problem));
  return (
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    'connection: close\r\n\r\n' +
    body
  );
}

/**
 * Given a node:http server and the service's error formatter, installs a `clientError` handler:
 * it writes the JSON envelope with `connection: close`, then destroys the socket; when a request
 * of the connection is still being answered (garbage pipelined after it), that answer is sent
 * instead and the connection closes after it. Also a `checkExpectation`
 * handler: an `Expect` other than `100-continue` is answered 417 with the envelope. `onError` sees
 * each one (for a log line).
 *
 * @example
 * installParserErrorHandlers(server, (p) => ({ error: { code: p.code, message: p.message } }));
 */
export function installParserErrorHandlers(server: Server, format: ErrorFormatter, onError?: (problem: EdgeProblem, error: Error) => void): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const problem = edgeProblem('expectation_failed');
    onError?.(problem, new Error(`Expect: ${String(req.headers.expect).slice(0, 100)}`));
    req.resume();
    sendJson(res, problem.status, format(problem), { connection: 'close' });
  });
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex & { _httpMessage?: (ServerResponse & { headersSent: boolean }) | null }) => {
    const code = error.code ?? '';
    const inFlight = socket._httpMessage;
    if (GONE.has(code) || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    if (inFlight !== null && inFlight !== undefined && !inFlight.writableFinished && inFlight.req.complete) {
      // Bytes after a complete request that is still being answered (a broken pipelined request):
      // that request has run, so its answer must reach the client; then the connection closes.
      // Writing an error here would replace a 2xx whose effects happened with a 4xx. (When the
      // in-flight request is the broken one, its body never completes: answer the error.)
      inFlight.shouldKeepAlive = false;
      inFlight.once('finish', () => socket.end()); // end, not destroy: the answer may still be buffered
      return;
    }
    const problem = edgeProblem(PROBLEM_BY_CODE[code] ?? 'bad_request');
    onError?.(problem, error);
    let response: string;
    try {
      response = rawErrorResponse(problem, format);
    } catch {
      socket.destroy();
      return;
    }
    // Destroy once the answer is flushed, and in any case soon (a peer that does not read).
    const timer = setTimeout(() => socket.destroy(), 1000);
    timer.unref();
    socket.end(response, () => {
      clearTimeout(timer);
      socket.destroy();
    });
  });
}
