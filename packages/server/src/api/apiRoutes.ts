/**
 * The JSON API's routes as one framework-free table: method, path pattern and handler from the
 * request's parts to a `HandlerResult`. The Express router (`createApiRouter`) and the fetch handler
 * (`createRetentionFetchHandler` with `api: true`) both serve this table, so a route, its validation
 * and its answers are written once. The dashboard's live stream (`GET /dashboard/live`, server-sent
 * events over a node response) is not in it: it is bound by Express alone.
 */
import type { z } from 'zod';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { dashboardStateOf } from '../dashboard/dashboardState.js';
import type { HandlerResult } from '../http/apiError.js';
import { validate } from '../http/validate.js';
import { getConfig } from './configHandlers.js';
import { configQuerySchema } from './configSchemas.js';
import { dispatchSubscriber, getDashboardSummary, getSubscriberDashboard } from './dashboardHandlers.js';
import {
  noQuerySchema,
  subscriberDashboardQuerySchema,
  subscriberDispatchBodySchema,
  subscriberEventsQuerySchema,
  summaryQuerySchema,
  trendsQuerySchema,
} from './dashboardSchemas.js';
import { listDispatches, runDispatch } from './dispatchHandlers.js';
import { resendDispatch } from './resendHandlers.js';
import {
  activityBodySchema,
  atRiskQuerySchema,
  customerIdParamsSchema,
  dispatchBodySchema,
  dispatchesQuerySchema,
  dispatchIdParamsSchema,
  resendBodySchema,
  dispatchQuerySchema,
  environmentQuerySchema,
} from './schemas.js';
import { grantOffer, revokeOffer } from './offerHandlers.js';
import { offerBodySchema, offerParamsSchema } from './offerSchemas.js';
import { getRecommendations, getSubscriber, listAtRisk, recordSubscriberActivity } from './subscriberHandlers.js';
import { getDashboardTrends, getSubscriberEvents } from './timelineHandlers.js';

/** What a route reads of a request, as Express's parsers give it. */
export interface ApiRequest {
  /** The path's named segments, percent-decoded (`customer_id`). */
  params: Record<string, string>;
  /** The query string as Express's simple parser reads it (a repeated key is an array). */
  query: Record<string, unknown>;
  /** The parsed JSON body; undefined when the request has none. */
  body: unknown;
}

/** One route of the JSON API, its path relative to `/api`. */
export interface ApiRoute {
  method: 'GET' | 'POST';
  /** Segments, a `:name` segment captures one path segment. */
  path: string;
  handle(request: ApiRequest): Promise<HandlerResult>;
}

/** A missing body (no content) counts as `{}`. */
const bodyOf = (request: ApiRequest): unknown => (request.body === undefined ? {} : request.body);

/** Validates the path's customer id and the query, then runs `handler`. */
const forCustomer =
  <Q extends z.ZodType>(query: Q, handler: (id: string, query: z.output<Q>, request: ApiRequest) => Promise<HandlerResult>) =>
  async (request: ApiRequest): Promise<HandlerResult> => {
    const params = validate(customerIdParamsSchema, request.params);
    if (!params.ok) return params.error;
    const q = validate(query, request.query);
    return q.ok ? handler(params.data.customer_id, q.data, request) : q.error;
  };

/** Validates the query, then runs `handler`. */
const withQuery =
  <Q extends z.ZodType>(query: Q, handler: (query: z.output<Q>, request: ApiRequest) => Promise<HandlerResult>) =>
  async (request: ApiRequest): Promise<HandlerResult> => {
    const q = validate(query, request.query);
    return q.ok ? handler(q.data, request) : q.error;
  };

/**
 * Given the runtime, returns the JSON API's routes (paths relative to `/api`), in the order they
 * are matched. Not pure: the dashboard routes read the runtime's dashboard state.
 *
 * @example
 * for (const route of apiRoutes(runtime)) router[route.method === 'GET' ? 'get' : 'post'](route.path, bind(route));
 */
export function apiRoutes(rt: RetentionRuntime): ApiRoute[] {
  const dashboard = dashboardStateOf(rt);
  return [
    { method: 'GET', path: '/subscribers/:customer_id', handle: forCustomer(environmentQuerySchema, (id, q) => getSubscriber(rt, id, q.environment)) },
    {
      method: 'GET',
      path: '/subscribers/:customer_id/recommend',
      handle: forCustomer(environmentQuerySchema, (id, q) => getRecommendations(rt, id, q.environment)),
    },
    {
      method: 'POST',
      path: '/subscribers/:customer_id/activity',
      handle: forCustomer(environmentQuerySchema, async (id, q, request) => {
        const body = validate(activityBodySchema, bodyOf(request));
        return body.ok ? recordSubscriberActivity(rt, id, body.data.at, q.environment) : body.error;
      }),
    },
    { method: 'GET', path: '/at-risk', handle: withQuery(atRiskQuerySchema, (q) => listAtRisk(rt, q)) },
    {
      method: 'POST',
      path: '/dispatch',
      handle: withQuery(dispatchQuerySchema, async (q, request) => {
        const body = validate(dispatchBodySchema, bodyOf(request));
        return body.ok ? runDispatch(rt, { ...q, ...body.data }) : body.error;
      }),
    },
    { method: 'GET', path: '/dispatches', handle: withQuery(dispatchesQuerySchema, (q) => listDispatches(rt.dispatchLog, q)) },
    {
      method: 'POST',
      path: '/dispatches/:id/resend',
      handle: withQuery(noQuerySchema, async (_q, request) => {
        const params = validate(dispatchIdParamsSchema, request.params);
        if (!params.ok) return params.error;
        const body = validate(resendBodySchema, bodyOf(request));
        return body.ok ? resendDispatch(rt, params.data.id, body.data.actor ?? 'api') : body.error;
      }),
    },
    {
      method: 'POST',
      path: '/dispatches/:id/revoke',
      handle: withQuery(noQuerySchema, async (_q, request) => {
        const params = validate(dispatchIdParamsSchema, request.params);
        if (!params.ok) return params.error;
        const body = validate(offerBodySchema, bodyOf(request));
        return body.ok ? revokeOffer(rt, params.data.id, body.data.actor ?? 'api') : body.error;
      }),
    },
    { method: 'GET', path: '/config', handle: withQuery(configQuerySchema, async () => getConfig(rt)) },
    { method: 'GET', path: '/dashboard/summary', handle: withQuery(summaryQuerySchema, (q) => getDashboardSummary(rt, dashboard.tally.lastHour(), q.environment)) },
    { method: 'GET', path: '/dashboard/trends', handle: withQuery(trendsQuerySchema, (q) => getDashboardTrends(rt, q.days, q.environment)) },
    {
      method: 'GET',
      path: '/dashboard/subscribers/:customer_id',
      handle: forCustomer(subscriberDashboardQuerySchema, (id, q) => getSubscriberDashboard(rt, id, q.environment)),
    },
    {
      method: 'GET',
      path: '/subscribers/:customer_id/events',
      handle: forCustomer(subscriberEventsQuerySchema, (id, q) => getSubscriberEvents(rt, id, { limit: q.limit, before: q.cursor }, q.environment)),
    },
    {
      method: 'POST',
      path: '/subscribers/:customer_id/dispatch',
      handle: forCustomer(noQuerySchema, async (id, _q, request) => {
        const body = validate(subscriberDispatchBodySchema, bodyOf(request));
        return body.ok ? dispatchSubscriber(rt, id, body.data.dry_run) : body.error;
      }),
    },
    {
      method: 'POST',
      path: '/subscribers/:customer_id/offers/:action',
      handle: async (request) => {
        const params = validate(offerParamsSchema, request.params);
        if (!params.ok) return params.error;
        const q = validate(noQuerySchema, request.query);
        if (!q.ok) return q.error;
        const body = validate(offerBodySchema, bodyOf(request));
        return body.ok ? grantOffer(rt, params.data.customer_id, params.data.action, body.data.actor ?? 'api') : body.error;
      },
    },
  ];
}
