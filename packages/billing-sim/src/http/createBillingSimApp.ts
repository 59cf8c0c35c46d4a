/** The Express 5 binding of the request handler: read the raw body, answer with the handler's result. */
import { decodeUtf8, edgeProblem, flattenHeaders, headerValue, parseRequestTarget, trailingSlashLocation } from '@tenure/http-edge';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { createRequestHandler, type HandlerOptions } from './handleRequest.js';
import { edgeErrorResponse, type SimResponse } from './httpTypes.js';
import { isMetricsRequest } from '../metrics/metricsEndpoint.js';
import { answerSimPage } from '../page/answerSimPage.js';

const answer = (res: Response, out: SimResponse) => {
  res.status(out.status).set(out.headers ?? {});
  // A 204 (a CORS preflight) has no body.
  if (out.status === 204) return void res.end();
  res.json(out.body);
};

/**
 * Given a simulator, returns an Express app serving API v2, the /sim control API, the control page
 * at `/`, `/openapi.json` and `/health`. Bodies are read as bytes and must be UTF-8 (400 naming
 * `body` otherwise), as on the node:http binding. Library code: the caller listens.
 *
 * @example
 * const app = createBillingSimApp(createBillingSimulator({ seed: 'demo' }));
 * app.listen(4000, '127.0.0.1');
 */
export function createBillingSimApp(sim: BillingSimulator, options: HandlerOptions = {}): Express {
  const handle = createRequestHandler(sim, options);
  const app = express();
  app.disable('x-powered-by');
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    if (!isMetricsRequest(req.method, req.path)) return next();
    const answer = await handle.metricsEndpoint.answer(req.headers.authorization);
    res.status(answer.status).set(answer.headers).send(answer.text);
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    const page = answerSimPage(req.method, req.path, headerValue(req.headers['if-none-match']));
    if (page === undefined) return next();
    // Mounted under a prefix, the page's relative URLs need the prefix's trailing slash.
    const location = req.baseUrl !== '' && req.path === '/' ? trailingSlashLocation(req.originalUrl) : undefined;
    if (location !== undefined) return void res.redirect(308, location);
    res.status(page.status).set(page.headers).end(page.body);
  });
  app.use(express.raw({ type: () => true, limit: '1mb' }));
  app.use((req: Request, res: Response) => {
    const target = parseRequestTarget(req.originalUrl);
    if (!target.ok) return answer(res, edgeErrorResponse(edgeProblem('bad_request_target', target.message)));
    let rawBody = '';
    if (Buffer.isBuffer(req.body)) {
      const decoded = decodeUtf8(req.body);
      if (!decoded.ok) return answer(res, edgeErrorResponse(edgeProblem('invalid_utf8')));
      rawBody = decoded.text;
    }
    answer(res, handle({ method: req.method, path: req.path, query: target.target.query, search: target.target.search, headers: flattenHeaders(req.headers), rawBody }));
  });
  // Body-reading failures (too large, bad encoding) get the same envelope.
  app.use((err: { status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const tooLarge = err.status === 413;
    const problem = tooLarge ? edgeProblem('payload_too_large', 'Request body too large') : edgeProblem('bad_request', err.message ?? 'Bad request');
    answer(res, edgeErrorResponse({ ...problem, field: 'body' }));
  });
  return app;
}
