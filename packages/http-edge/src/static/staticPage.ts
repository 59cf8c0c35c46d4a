/**
 * A web page both services serve from memory (the retention dashboard, the simulator's control
 * page): the HTML at the page's own path, revalidated on every load, its assets named by content
 * hash and cached as immutable, ETags on all, and a Content-Security-Policy that allows nothing but
 * this origin (no CDN, no inline script). Framework-free, so the node:http and Express bindings of
 * either service answer alike.
 */
import { createHash } from 'node:crypto';

/** The pages' Content-Security-Policy: same origin only; styles set through the CSSOM, never inline. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** One generated asset: its path relative to the page (`dashboard/app.<hash>.js`), content type and text. */
export interface PageAsset {
  path: string;
  type: string;
  body: string;
}

/** A static answer: status, headers and the bytes to send (empty for 304 and HEAD). */
export interface StaticAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body: Buffer;
}

/** Answers the page's requests; `undefined` when the request is not the page's. */
export interface StaticPage {
  /** Given the method, the path below the page's mount (`/`, `/dashboard/app.<hash>.js`) and `If-None-Match`, returns the answer or `undefined`. */
  answer(method: string, path: string, ifNoneMatch?: string): StaticAnswer | undefined;
}

interface Served {
  type: string;
  body: Buffer;
  etag: string;
  cacheControl: string;
  csp: boolean;
}

const served = (type: string, text: string, cacheControl: string, csp: boolean): Served => {
  const body = Buffer.from(text, 'utf8');
  return { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`, cacheControl, csp };
};

/**
 * Given the page's HTML and its hashed assets, returns the answers of `GET`/`HEAD /` and of each
 * asset's path. Pure apart from hashing the texts once, here.
 *
 * @example
 * const page = createStaticPage(DASHBOARD_HTML, DASHBOARD_ASSETS);
 * page.answer('GET', '/')?.headers['cache-control']; // 'no-cache'
 */
export function createStaticPage(html: string, assets: readonly PageAsset[]): StaticPage {
  const files = new Map<string, Served>([['/', served('text/html; charset=utf-8', html, 'no-cache', true)]]);
  for (const a of assets) files.set(`/${a.path}`, served(a.type, a.body, 'public, max-age=31536000, immutable', false));
  return {
    answer(method, path, ifNoneMatch) {
      if (method !== 'GET' && method !== 'HEAD') return undefined;
      const file = files.get(path);
      if (file === undefined) return undefined;
      const headers: Record<string, string> = {
        'content-type': file.type,
        'cache-control': file.cacheControl,
        etag: file.etag,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      };
      if (file.csp) headers['content-security-policy'] = PAGE_CSP;
      if (ifNoneMatch === file.etag) return { status: 304, headers, body: Buffer.alloc(0) };
      headers['content-length'] = String(file.body.length);
      return { status: 200, headers, body: method === 'HEAD' ? Buffer.alloc(0) : file.body };
    },
  };
}

/**
 * Given the request URL a mounted app received for its page (`/retention?x=1`: Express's
 * `originalUrl`), returns where to redirect so the page's relative URLs resolve under the prefix
 * (`/retention/?x=1`), or `undefined` when it already ends with a slash. Pure.
 *
 * @example
 * trailingSlashLocation('/billing'); // '/billing/'
 */
export function trailingSlashLocation(originalUrl: string): string | undefined {
  const [path = '/', search] = originalUrl.split('?', 2);
  return path.endsWith('/') ? undefined : `${path}/${search === undefined ? '' : `?${search}`}`;
}
