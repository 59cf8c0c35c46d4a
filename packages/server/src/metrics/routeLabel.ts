/**
 * The `route` label of the request histogram: the service's route patterns, never a raw URL (a
 * customer id in a path would make one series per customer). Any path that is not a route of the
 * service, including paths other features serve before they are listed here, is `other`.
 */

/** Every value the `route` label can take. `other` is last. */
export const ROUTE_LABELS = [
  '/',
  '/webhook',
  '/health',
  '/ready',
  '/openapi.json',
  '/metrics',
  '/dashboard/:file',
  '/api/at-risk',
  '/api/dispatch',
  '/api/dispatches',
  '/api/dispatches/:id/resend',
  '/api/dispatches/:id/revoke',
  '/api/subscribers/:customer_id/offers/:action',
  '/api/subscribers/:customer_id',
  '/api/subscribers/:customer_id/recommend',
  '/api/subscribers/:customer_id/activity',
  '/api/subscribers/:customer_id/dispatch',
  '/api/dashboard/summary',
  '/api/dashboard/live',
  '/api/dashboard/subscribers/:customer_id',
  'other',
] as const;
export type RouteLabel = (typeof ROUTE_LABELS)[number];

const OTHER = ROUTE_LABELS.length - 1;
const EXACT = new Map<string, number>(ROUTE_LABELS.slice(0, -1).filter((r) => !r.includes(':')).map((r) => [r, ROUTE_LABELS.indexOf(r)]));
/** The patterns with a parameter, as segments (`null` matches any one non-empty segment). */
const PATTERNS = ROUTE_LABELS.map((r, i) => ({ i, segments: r.split('/').map((s) => (s.startsWith(':') ? null : s)) })).filter(({ i }) =>
  ROUTE_LABELS[i]!.includes(':'),
);

/**
 * Given a path relative to the app (no query), returns the position of its route pattern in
 * `ROUTE_LABELS` (`other` for anything else). Pure.
 *
 * @example
 * ROUTE_LABELS[routeIndexOf('/api/subscribers/cus_1/recommend')]; // '/api/subscribers/:customer_id/recommend'
 * ROUTE_LABELS[routeIndexOf('/wp-admin')]; // 'other'
 */
export function routeIndexOf(path: string): number {
  const exact = EXACT.get(path);
  if (exact !== undefined) return exact;
  const segments = path.split('/');
  for (const { i, segments: pattern } of PATTERNS) {
    if (pattern.length !== segments.length) continue;
    if (pattern.every((want, k) => (want === null ? segments[k] !== '' : want === segments[k]))) return i;
  }
  return OTHER;
}

/** The `status_class` label values, by `Math.floor(status / 100) - 1`. */
export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/**
 * Given an HTTP status, returns its position in `STATUS_CLASSES` (anything out of range counts as
 * `5xx`). Pure.
 *
 * @example
 * STATUS_CLASSES[statusClassIndex(404)]; // '4xx'
 */
export function statusClassIndex(status: number): number {
  const i = Math.floor(status / 100) - 1;
  return i >= 0 && i < STATUS_CLASSES.length ? i : STATUS_CLASSES.length - 1;
}
