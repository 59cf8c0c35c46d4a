/** A route of the simulator's HTTP surface, and the matcher from `:param` patterns. */
import type { BillingSimulator } from '../sim/createSimulator.js';
import type { RouteInput, SimResponse } from './httpTypes.js';

/** The billing service's rate limit domains (requests per minute). */
export const RATE_LIMITS = {
  project_configuration: 60,
  customer_information: 480,
  virtual_currencies_transactions: 480,
} as const;
export type RateDomain = keyof typeof RATE_LIMITS;

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
