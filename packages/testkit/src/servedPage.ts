/** Reading a page a service serves (the retention dashboard, the simulator's control page) as its HTTP tests check it. */

/**
 * Given a page's HTML, returns the paths of the files it loads (every `src` and `href`, fragments
 * and `data:` URLs left out), in document order.
 *
 * @example
 * pageAssetPaths('<link href="page/app.0a1b.css"><a href="#main">'); // ['page/app.0a1b.css']
 */
export const pageAssetPaths = (html: string): string[] =>
  [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((p) => !p.startsWith('#') && !p.startsWith('data:'));

/**
 * Given the text of an HTML page, script or stylesheet, returns what in it reaches outside the
 * origin: `http(s)://` URLs, protocol-relative `src`/`href`/`url()` values and `@import`s. Empty
 * for a page that works offline, with no CDN.
 *
 * @example
 * externalReferences('<script src="https://cdn.example/x.js">'); // ['https://']
 */
export function externalReferences(text: string): string[] {
  const patterns = [/https?:\/\//gi, /(?:src|href|url\()\s*=?\s*["']?\/\//gi, /@import/g];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[0]));
}
