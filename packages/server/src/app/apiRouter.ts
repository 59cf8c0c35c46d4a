/** The Express binding of `/api/*`: bearer auth, JSON bodies, validation, then the handlers. */
import express, { type Request, type Response } from 'express';
import { getRecommendations, getSubscriber, listAtRisk, recordSubscriberActivity } from '../api/subscriberHandlers.js';
import { listDispatches, runDispatch } from '../api/dispatchHandlers.js';
import { getConfig } from '../api/configHandlers.js';
import { configQuerySchema } from '../api/configSchemas.js';
import { addDashboardApiRoutes } from '../dashboard/dashboardApiRoutes.js';
import {
  activityBodySchema,
  atRiskQuerySchema,
  customerIdParamsSchema,
  dispatchBodySchema,
  dispatchesQuerySchema,
  dispatchQuerySchema,
  environmentQuerySchema,
  type Environment,
} from '../api/schemas.js';
import { apiError, type HandlerResult } from '../http/apiError.js';
import { headerValue } from '../http/secretMatcher.js';
import { validate } from '../http/validate.js';
import { assertUtf8Body } from './errorHandler.js';
import type { RetentionRuntime } from './retentionOptions.js';

const send = (res: Response, result: HandlerResult) => void res.status(result.status).json(result.body);

/** A route whose handler returns a HandlerResult; thrown errors go to the app's error handler. */
const route = (handler: (req: Request) => Promise<HandlerResult>) => async (req: Request, res: Response) => send(res, await handler(req));

/** A missing body (no content) counts as `{}`. */
const bodyOf = (req: Request): unknown => (req.body === undefined ? {} : req.body);

/**
 * Given the runtime, returns the router of `/api`: every route answers JSON, 401 without the bearer
 * key when TENURE_API_KEY is set, 400 naming the field on invalid input.
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

  const withCustomer = (run: (id: string, environment: Environment | undefined, req: Request) => Promise<HandlerResult>) =>
    route(async (req) => {
      const params = validate(customerIdParamsSchema, req.params);
      if (!params.ok) return params.error;
      const query = validate(environmentQuerySchema, req.query);
      return query.ok ? run(params.data.customer_id, query.data.environment, req) : query.error;
    });

  router.get('/subscribers/:customer_id', withCustomer((id, environment) => getSubscriber(rt, id, environment)));
  router.get('/subscribers/:customer_id/recommend', withCustomer((id, environment) => getRecommendations(rt, id, environment)));
  router.post(
    '/subscribers/:customer_id/activity',
    withCustomer(async (id, environment, req) => {
      const body = validate(activityBodySchema, bodyOf(req));
      return body.ok ? recordSubscriberActivity(rt, id, body.data.at, environment) : body.error;
    }),
  );
  router.get(
    '/at-risk',
    route(async (req) => {
      const query = validate(atRiskQuerySchema, req.query);
      return query.ok ? listAtRisk(rt, query.data) : query.error;
    }),
  );
  router.post(
    '/dispatch',
    route(async (req) => {
      const query = validate(dispatchQuerySchema, req.query);
      if (!query.ok) return query.error;
      const body = validate(dispatchBodySchema, bodyOf(req));
      return body.ok ? runDispatch(rt, { ...query.data, ...body.data }) : body.error;
    }),
  );
  router.get(
    '/dispatches',
    route(async (req) => {
      const query = validate(dispatchesQuerySchema, req.query);
      return query.ok ? listDispatches(rt.dispatchLog, query.data) : query.error;
    }),
  );
  router.get(
    '/config',
    route(async (req) => {
      const query = validate(configQuerySchema, req.query);
      return query.ok ? getConfig(rt) : query.error;
    }),
  );
  addDashboardApiRoutes(router, rt); // summary, live feed, one subscriber's extras and dispatch
  return router;
}
