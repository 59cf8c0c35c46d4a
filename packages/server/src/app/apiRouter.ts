/** The Express binding of `/api/*`: bearer auth, JSON bodies, validation, then the handlers. */
import express, { type Request, type Response } from 'express';
import { apiRoutes, type ApiRoute } from '../api/apiRoutes.js';
import { addDashboardLiveRoute } from '../dashboard/dashboardApiRoutes.js';
import { apiError, type HandlerResult } from '../http/apiError.js';
import { headerValue } from '../http/secretMatcher.js';
import { assertUtf8Body } from './errorHandler.js';
import type { RetentionRuntime } from './retentionOptions.js';

const send = (res: Response, result: HandlerResult) => void res.status(result.status).json(result.body);

/** A route of the table bound to Express; thrown errors go to the app's error handler. */
const bind = (route: ApiRoute) => async (req: Request, res: Response) =>
  send(res, await route.handle({ params: req.params as Record<string, string>, query: req.query as Record<string, unknown>, body: req.body as unknown }));

/**
 * Given the runtime, returns the router of `/api`: every route answers JSON, 401 without the bearer
 * key when TENURE_API_KEY is set, 400 naming the field on invalid input. The routes are the table
 * of `apiRoutes` (shared with the fetch handler), plus the dashboard's live stream.
 *
 * @example
 * app.use('/api', createApiRouter(runtime));
 */
export function createApiRouter(rt: RetentionRuntime): express.Router {
  const router = express.Router();
  router.use((req, res, next) => {
    if (rt.apiAuth.matches(headerValue(req.headers.authorization))) return next();
    res.setHeader('www-authenticate', 'Bearer');
    send(res, apiError('unauthorized', 'Missing or wrong bearer token (TENURE_API_KEY)'));
  });
  router.use(express.json({ limit: '1mb', verify: assertUtf8Body }));
  // A body that is not JSON would otherwise be ignored silently (and `{}` assumed).
  router.use((req, res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody || req.body !== undefined) return next();
    send(res, apiError('unsupported_media_type', 'Send the body as application/json', 'body'));
  });
  for (const route of apiRoutes(rt)) {
    if (route.method === 'GET') router.get(route.path, bind(route));
    else router.post(route.path, bind(route));
  }
  addDashboardLiveRoute(router, rt); // server-sent events over the node response
  return router;
}
