/** The node:http binding of the request handler (no framework): what `startBillingSim` serves. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toErrorResponse } from '../sim/apiError.js';
import type { SimRequest, SimResponse } from './httpTypes.js';

const MAX_BODY = 1024 * 1024;

/**
 * Given a request handler, returns a `node:http` request listener that reads the body (up to 1 MB),
 * calls the handler and writes its JSON answer.
 *
 * @example
 * createServer(toNodeListener(createRequestHandler(sim))).listen(4000, '127.0.0.1');
 */
export function toNodeListener(handle: (req: SimRequest) => SimResponse) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      let out: SimResponse;
      if (tooLarge) {
        out = { ...toErrorResponse({ type: 'invalid_request', message: 'Request body too large', param: 'body' }), status: 413 };
      } else {
        const url = new URL(req.url ?? '/', 'http://local');
        const headers: Record<string, string | undefined> = {};
        for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        out = handle({
          method: req.method ?? 'GET',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
        });
      }
      const body = JSON.stringify(out.body);
      res.writeHead(out.status, { 'content-type': 'application/json; charset=utf-8', ...out.headers });
      res.end(body);
    });
  };
}
