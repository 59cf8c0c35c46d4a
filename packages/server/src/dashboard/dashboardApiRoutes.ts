/**
 * The Express binding of the dashboard's live feed, added to the `/api` router (behind its bearer
 * auth): server-sent events written to the node response. The dashboard's other routes are in the
 * shared route table (`api/apiRoutes.ts`).
 */
import type { Request, Response, Router } from 'express';
import { noQuerySchema } from '../api/dashboardSchemas.js';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { apiError, type HandlerResult } from '../http/apiError.js';
import { validate } from '../http/validate.js';
import { dashboardStateOf } from './dashboardState.js';

const send = (res: Response, result: HandlerResult) => void res.status(result.status).json(result.body);

/**
 * Given the `/api` router and the runtime, adds `GET /dashboard/live` to it. Not pure: it attaches
 * the runtime's dashboard state (the live feed).
 *
 * @example
 * addDashboardLiveRoute(router, runtime);
 */
export function addDashboardLiveRoute(router: Router, rt: RetentionRuntime): void {
  const dashboard = dashboardStateOf(rt);
  router.get('/dashboard/live', (req: Request, res: Response) => {
    const query = validate(noQuerySchema, req.query);
    if (!query.ok) return send(res, query.error);
    if (!dashboard.feed.attach(req, res)) {
      res.setHeader('retry-after', '30');
      send(res, apiError('unavailable', 'Too many live dashboard streams; poll /api/at-risk instead'));
    }
  });
}
