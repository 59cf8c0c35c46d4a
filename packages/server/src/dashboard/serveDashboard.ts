/**
 * Serves the dashboard page at `/` and its assets under `/dashboard/`, from memory (the page is
 * built into `generated/dashboardAssets.ts`) through the shared edge's static page: the HTML
 * revalidated on every load, the assets named by content hash and cached as immutable, ETags on
 * all, and a Content-Security-Policy that allows nothing but this origin (no CDN, no inline script).
 */
import { createStaticPage, trailingSlashLocation, type StaticAnswer } from '@tenure/http-edge';
import express, { type Response } from 'express';
import { DASHBOARD_ASSETS, DASHBOARD_HTML } from './generated/dashboardAssets.js';

const send = (res: Response, answer: StaticAnswer): void => void res.status(answer.status).set(answer.headers).end(answer.body);

/**
 * Returns the Express router of the page (`GET /`) and its assets (`GET /dashboard/app.<hash>.js`
 * and `.css`). Mounted under a prefix, a request for the prefix without its trailing slash is
 * redirected to it, so the page's relative URLs resolve under the prefix.
 *
 * @example
 * app.use(createDashboardRouter());
 */
export function createDashboardRouter(): express.Router {
  const router = express.Router({ strict: true });
  const page = createStaticPage(DASHBOARD_HTML, DASHBOARD_ASSETS);
  router.get('/', (req, res) => {
    // Only a mounted app is reached without the slash (`/retention`); standalone, `/` always has it.
    const location = req.baseUrl === '' ? undefined : trailingSlashLocation(req.originalUrl);
    if (location !== undefined) return void res.redirect(308, location);
    send(res, page.answer(req.method, '/', req.headers['if-none-match'])!);
  });
  router.get('/dashboard/:file', (req, res, next) => {
    const answer = page.answer(req.method, req.path, req.headers['if-none-match']);
    if (answer === undefined) return next();
    send(res, answer);
  });
  return router;
}
