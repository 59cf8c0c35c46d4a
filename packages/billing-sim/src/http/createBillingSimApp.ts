/** The Express 5 binding of the request handler: read the raw body, answer with the handler's result. */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { BillingSimulator } from '../sim/createSimulator.js';
import { toErrorResponse } from '../sim/apiError.js';
import { createRequestHandler, type HandlerOptions } from './handleRequest.js';

/**
 * Given a simulator, returns an Express app serving API v2, the /sim control API, `/openapi.json`
 * and `/health`. Library code: the caller listens.
 *
 * @example
 * const app = createBillingSimApp(createBillingSimulator({ seed: 'demo' }));
 * app.listen(4000, '127.0.0.1');
 */
export function createBillingSimApp(sim: BillingSimulator, options: HandlerOptions = {}): Express {
  const handle = createRequestHandler(sim, options);
  const app = express();
  app.disable('x-powered-by');
  app.use(express.text({ type: () => true, limit: '1mb' }));
  app.use((req: Request, res: Response) => {
    const query: Record<string, string> = {};
    for (const [k, v] of new URL(req.originalUrl, 'http://local').searchParams) query[k] = v;
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const out = handle({ method: req.method, path: req.path, query, headers, rawBody: typeof req.body === 'string' ? req.body : '' });
    res.status(out.status).set(out.headers ?? {}).json(out.body);
  });
  // Body-reading failures (too large, bad encoding) get the same envelope.
  app.use((err: { status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const tooLarge = err.status === 413;
    const out = toErrorResponse({ type: 'invalid_request', message: tooLarge ? 'Request body too large' : (err.message ?? 'Bad request'), param: 'body' });
    res.status(tooLarge ? 413 : out.status).json(out.body);
  });
  return app;
}
