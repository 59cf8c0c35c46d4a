/**
 * The billing service's rate limits: one budget per domain and API key, per window (a minute on the
 * real service). The limits are the documented ones; a simulator can scale them, shorten the window
 * for tests, or turn limiting off.
 */

/**
 * Requests per window of each rate-limit domain, as documented (`x-revenuecat-rate-limiting-domain`
 * in the official document and its prose: "Customer Information 480/min", "Project Configuration
 * 60/min", "Charts & Metrics 5/min", "Virtual Currencies – Create Transaction 480/min").
 *
 * @example
 * RATE_LIMITS.project_configuration; // 60
 */
export const RATE_LIMITS = {
  customer_information: 480,
  project_configuration: 60,
  charts_metrics: 5,
  virtual_currencies_create_transaction: 480,
} as const;

/** A rate-limit domain of API v2. */
export type RateDomain = keyof typeof RATE_LIMITS;

/** How the simulator limits: on (the documented limits) unless `enabled` is false. */
export interface RateLimitSettings {
  /** Default true. False: only the usage headers, never a 429. */
  enabled?: boolean;
  /** Requests per window by domain; omitted domains keep the documented limit. */
  limits?: Partial<Record<RateDomain, number>>;
  /** The window, default 60 000 ms (a minute, as documented). Tests shorten it. */
  window_ms?: number;
}

/** The outcome of counting one request. */
export interface RateDecision {
  /** `RevenueCat-Rate-Limit-Current-Usage` and `-Limit`, plus `Retry-After` (seconds) when limited. */
  headers: Record<string, string>;
  limited: boolean;
  /** When limited: ms until the window ends (the error body's `backoff_ms`). */
  backoff_ms: number;
}

/** Counts requests per domain and key in fixed windows. */
export interface RateLimiter {
  take(domain: RateDomain, key: string): RateDecision;
}

/**
 * Given settings and a clock (epoch ms), returns a limiter: fixed windows aligned on multiples of the
 * window, one count per domain and key (the API key: the real service limits per key); a request past
 * the limit is refused with the seconds and milliseconds left in its window. Refused requests count
 * too, as usage the real service reports.
 *
 * @example
 * const limiter = createRateLimiter({ limits: { project_configuration: 1 } }, () => 0);
 * limiter.take('project_configuration', 'k').limited; // false
 * limiter.take('project_configuration', 'k').limited; // true
 */
export function createRateLimiter(settings: RateLimitSettings = {}, clock: () => number = Date.now): RateLimiter {
  const enabled = settings.enabled ?? true;
  const windowMs = settings.window_ms ?? 60_000;
  const limits: Record<RateDomain, number> = { ...RATE_LIMITS, ...settings.limits };
  const usage = new Map<string, { window: number; count: number }>();
  return {
    take(domain, key) {
      const now = clock();
      const window = Math.floor(now / windowMs);
      const id = `${domain}\u0000${key}`;
      const current = usage.get(id);
      const count = current !== undefined && current.window === window ? current.count + 1 : 1;
      usage.set(id, { window, count });
      const limit = limits[domain];
      const headers: Record<string, string> = {
        'RevenueCat-Rate-Limit-Current-Usage': String(count),
        'RevenueCat-Rate-Limit-Current-Limit': String(limit),
      };
      const limited = enabled && count > limit;
      const backoff = (window + 1) * windowMs - now;
      if (limited) headers['Retry-After'] = String(Math.ceil(backoff / 1000));
      return { headers, limited, backoff_ms: limited ? backoff : 0 };
    },
  };
}
