/** A route of the simulator's HTTP surface, and the matcher from `:param` patterns. */
import type { BillingSimulator } from '../sim/createSimulator.js';
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
