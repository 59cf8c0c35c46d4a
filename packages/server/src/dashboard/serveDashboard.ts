/**
 * Serves the dashboard page at `/` and its assets under `/dashboard/`, from memory (the page is
 * built into `generated/dashboardAssets.ts`): the HTML revalidated on every load, the assets named
 * by content hash and cached as immutable, ETags on all, and a Content-Security-Policy that allows
 * nothing but this origin (no CDN, no inline script).
 */
import { createHash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { DASHBOARD_ASSETS, DASHBOARD_HTML } from './generated/dashboardAssets.js';

/** The page's Content-Security-Policy: same origin only; styles set through the CSSOM, never inline. */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface Served {
  type: string;
  body: Buffer;
  etag: string;
  cacheControl: string;
}

const served = (type: string, text: string, cacheControl: string): Served => {
  const body = Buffer.from(text, 'utf8');
  return { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`, cacheControl };
};

function send(req: Request, res: Response, file: Served): void {
  res.setHeader('content-type', file.type);
  res.setHeader('cache-control', file.cacheControl);
  res.setHeader('etag', file.etag);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  if (req.headers['if-none-match'] === file.etag) return void res.status(304).end();
  res.setHeader('content-length', file.body.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : file.body);
}

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
  const page = served('text/html; charset=utf-8', DASHBOARD_HTML, 'no-cache');
  const assets = new Map(DASHBOARD_ASSETS.map((a) => [`/${a.path}`, served(a.type, a.body, 'public, max-age=31536000, immutable')]));
  router.get('/', (req, res) => {
    // Only a mounted app is reached without the slash (`/retention`); standalone, `/` always has it.
    const [path = '/', search] = req.originalUrl.split('?', 2);
    if (req.baseUrl !== '' && !path.endsWith('/')) return void res.redirect(308, `${path}/${search === undefined ? '' : `?${search}`}`);
    res.setHeader('content-security-policy', DASHBOARD_CSP);
    send(req, res, page);
  });
  router.get('/dashboard/:file', (req, res, next) => {
    const file = assets.get(req.path);
    if (file === undefined) return next();
    send(req, res, file);
  });
  return router;
}
