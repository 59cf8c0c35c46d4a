/**
 * The simulator's control page at `/` (and its assets under `/page/`), served from memory by both
 * HTTP bindings through the shared edge's static page: built into `generated/pageAssets.ts` by
 * `page/buildPage.ts`. The page itself is open (it is static); everything it does goes through
 * `/sim` and `/v2`, behind the API key when one is set.
 */
import { createStaticPage, type StaticAnswer, type StaticPage } from '@tenure/http-edge';
import { SIM_PAGE_ASSETS, SIM_PAGE_HTML } from './generated/pageAssets.js';

let page: StaticPage | undefined;

/**
 * Given a request's method, path and `If-None-Match`, returns the page's answer (HTML, script or
 * stylesheet, with caching headers and the same-origin CSP), or `undefined` for every other request.
 *
 * @example
 * answerSimPage('GET', '/')?.headers['content-type']; // 'text/html; charset=utf-8'
 */
export function answerSimPage(method: string, path: string, ifNoneMatch?: string): StaticAnswer | undefined {
  if (path !== '/' && !path.startsWith('/page/')) return undefined;
  // Hashed once, on the first request for the page, not when the package is imported.
  page ??= createStaticPage(SIM_PAGE_HTML, SIM_PAGE_ASSETS);
  return page.answer(method.toUpperCase(), path, ifNoneMatch);
}
