/** A route of the simulator's HTTP surface, and the matcher from `:param` patterns. */
import type { BillingSimulator } from '../simulator/createSimulator.js';
import type { RouteInput, SimResponse } from './httpTypes.js';
import type { RateDomain } from './rateLimit/rateLimits.js';

export { RATE_LIMITS, type RateDomain } from './rateLimit/rateLimits.js';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: string;
  domain?: RateDomain;
  summary: string;
  handler: (sim: BillingSimulator, input: RouteInput) => SimResponse;
}

/** Compiles `/v2/projects/:project_id` to a matcher returning the decoded params, or null. */
export function compilePattern(pattern: string): (path: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((seg) => {
      if (!seg.startsWith(':')) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(seg.slice(1));
      return '([^/]+)';
    })
    .join('/');
  const re = new RegExp(`^${source}/?$`);
  return (path) => {
    const m = re.exec(path);
    if (m === null) return null;
    const params: Record<string, string> = {};
    try {
      names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1] ?? '')));
    } catch {
      return null;
    }
    return params;
  };
}

/** The first segment of a path or pattern (`v2` of `/v2/projects/p1`). */
const headOf = (path: string): string => {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
};

/**
 * Given routes, returns a function finding the first route of a method whose pattern matches a path,
 * in the routes' order: what `routes.find` with each `compilePattern` matcher finds, trying only the
 * routes whose pattern starts with the path's first segment (or with a parameter).
 *
 * @example
 * createRouteFinder(ROUTES)('GET', '/v2/projects/p1')?.pattern; // '/v2/projects/:project_id'
 */
export function createRouteFinder<R extends Pick<Route, 'method' | 'pattern'>>(routes: readonly R[]): (method: string, path: string) => R | undefined {
  const compiled = routes.map((route) => ({ route, head: headOf(route.pattern), match: compilePattern(route.pattern) }));
  const anyHead = (c: (typeof compiled)[number]) => c.head.startsWith(':');
  const byHead = new Map<string, typeof compiled>();
  for (const { head } of compiled) if (!head.startsWith(':') && !byHead.has(head)) byHead.set(head, compiled.filter((c) => c.head === head || anyHead(c)));
  const others = compiled.filter(anyHead);
  return (method, path) => {
    for (const { route, match } of byHead.get(headOf(path)) ?? others) if (route.method === method && match(path) !== null) return route;
    return undefined;
  };
}
