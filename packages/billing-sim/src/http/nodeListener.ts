/**
 * The node:http binding of the request handler (no framework): what `startBillingSim` serves. The
 * request line, body limit and UTF-8 check are the shared HTTP edge's, so every byte a client sends
 * is handled inside this boundary.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkRequestHead, DEFAULT_BODY_LIMIT, edgeProblem, flattenHeaders, headerValue, readText, sendJson } from '@tenure/http-edge';
import { fail } from '../machine/apiError.js';
import { edgeErrorResponse, errorResponse, type SimRequest, type SimResponse } from './httpTypes.js';
import { isMetricsRequest, type MetricsEndpoint } from '../metrics/metricsEndpoint.js';
import { answerSimPage } from '../page/answerSimPage.js';

/** A request handler, with the `GET /metrics` endpoint `createRequestHandler` attaches. */
type Handler = ((req: SimRequest) => SimResponse) & { readonly metricsEndpoint?: MetricsEndpoint };

const TOO_LARGE = 'Request body too large';

const send = (res: ServerResponse, out: SimResponse, close = false): void => {
  const headers = close ? { ...out.headers, connection: 'close' } : (out.headers ?? {});
  // A 204 (a CORS preflight) has no body.
  if (out.status === 204) return void res.writeHead(204, headers).end();
  sendJson(res, out.status, out.body, headers);
};

async function serve(handle: Handler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const head = checkRequestHead(req);
  if (!head.ok) {
    req.resume();
    return send(res, edgeErrorResponse(head.problem));
  }
  if (handle.metricsEndpoint !== undefined && isMetricsRequest(req.method, head.target.path)) {
    req.resume();
    const answer = await handle.metricsEndpoint.answer(req.headers.authorization);
    return void res.writeHead(answer.status, answer.headers).end(answer.text);
  }
  const page = answerSimPage(req.method ?? 'GET', head.target.path, headerValue(req.headers['if-none-match']));
  if (page !== undefined) {
    req.resume();
    return void res.writeHead(page.status, page.headers).end(page.body);
  }
  const body = await readText(req, DEFAULT_BODY_LIMIT);
  if (!body.ok) {
    if (body.code === 'aborted') return void res.destroy();
    const problem = body.code === 'payload_too_large' ? edgeProblem(body.code, TOO_LARGE) : edgeProblem(body.code);
    return send(res, edgeErrorResponse(problem), body.code === 'payload_too_large');
  }
  let out: SimResponse;
  try {
    out = handle({
      method: req.method ?? 'GET',
      path: head.target.path,
      query: head.target.query,
      search: head.target.search,
      headers: flattenHeaders(req.headers),
      rawBody: body.text,
    });
  } catch (err) {
    out = errorResponse(fail('server_error', err instanceof Error ? err.message : 'Internal error').error);
  }
  send(res, out);
}

/**
 * Given a request handler, returns a `node:http` request listener that checks the request target,
 * serves the control page at `/`, reads the body (up to 1 MB, strict UTF-8), calls the handler and
 * writes its JSON answer. Bad input of any kind is answered 4xx with the billing service's error
 * envelope; it never throws.
 *
 * @example
 * createServer(toNodeListener(createRequestHandler(sim))).listen(4000, '127.0.0.1');
 */
export function toNodeListener(handle: Handler) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    serve(handle, req, res).catch(() => {
      if (!res.headersSent) send(res, errorResponse(fail('server_error', 'Internal error').error));
      else res.destroy();
    });
  };
}
