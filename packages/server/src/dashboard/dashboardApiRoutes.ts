/**
 * The Express binding of the dashboard's API routes, added to the `/api` router (behind its bearer
 * auth and JSON body parsing): the summary tiles, the trends, the live feed, one subscriber's next
 * change, dispatches and timeline of events, and dispatching one subscriber now.
 */
import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { dispatchSubscriber, getDashboardSummary, getSubscriberDashboard } from '../api/dashboardHandlers.js';
import {
  noQuerySchema,
  subscriberDashboardQuerySchema,
  subscriberDispatchBodySchema,
  subscriberEventsQuerySchema,
  summaryQuerySchema,
  trendsQuerySchema,
} from '../api/dashboardSchemas.js';
import { getDashboardTrends, getSubscriberEvents } from '../api/timelineHandlers.js';
import { customerIdParamsSchema } from '../api/schemas.js';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { apiError, type HandlerResult } from '../http/apiError.js';
import { validate } from '../http/validate.js';
import { dashboardStateOf } from './dashboardState.js';

const send = (res: Response, result: HandlerResult) => void res.status(result.status).json(result.body);

/** Validates the path's customer id and the query, then runs `handler`. */
const forCustomer =
  <Q extends z.ZodType>(query: Q, handler: (id: string, query: z.output<Q>, req: Request) => Promise<HandlerResult>) =>
  async (req: Request, res: Response) => {
    const params = validate(customerIdParamsSchema, req.params);
    if (!params.ok) return send(res, params.error);
    const q = validate(query, req.query);
    send(res, q.ok ? await handler(params.data.customer_id, q.data, req) : q.error);
  };

/**
 * Given the `/api` router and the runtime, adds the dashboard's routes to it. Not pure: it attaches
 * the runtime's dashboard state (webhook counts, live feed).
 *
 * @example
 * addDashboardApiRoutes(router, runtime);
 */
export function addDashboardApiRoutes(router: Router, rt: RetentionRuntime): void {
  const dashboard = dashboardStateOf(rt);
  router.get('/dashboard/summary', async (req, res) => {
    const query = validate(summaryQuerySchema, req.query);
    send(res, query.ok ? await getDashboardSummary(rt, dashboard.tally.lastHour(), query.data.environment) : query.error);
  });
  router.get('/dashboard/trends', async (req, res) => {
    const query = validate(trendsQuerySchema, req.query);
    send(res, query.ok ? await getDashboardTrends(rt, query.data.days, query.data.environment) : query.error);
  });
  router.get('/dashboard/live', (req, res) => {
    const query = validate(noQuerySchema, req.query);
    if (!query.ok) return send(res, query.error);
    if (!dashboard.feed.attach(req, res)) {
      res.setHeader('retry-after', '30');
      send(res, apiError('unavailable', 'Too many live dashboard streams; poll /api/at-risk instead'));
    }
  });
  router.get(
    '/dashboard/subscribers/:customer_id',
    forCustomer(subscriberDashboardQuerySchema, (id, query) => getSubscriberDashboard(rt, id, query.environment)),
  );
  router.get(
    '/subscribers/:customer_id/events',
    forCustomer(subscriberEventsQuerySchema, (id, query) => getSubscriberEvents(rt, id, { limit: query.limit, before: query.cursor }, query.environment)),
  );
  router.post(
    '/subscribers/:customer_id/dispatch',
    forCustomer(noQuerySchema, async (id, _query, req) => {
      const body = validate(subscriberDispatchBodySchema, req.body === undefined ? {} : req.body);
      return body.ok ? dispatchSubscriber(rt, id, body.data.dry_run) : body.error;
    }),
  );
}
