/**
 * Per-channel rate limiting for alerts: each channel hands out send slots at most `perSecond` per
 * second, in request order. Time and sleeping are injected so tests never wait for real.
 */

/** Waits until the named channel may send one more message. */
export interface RateLimiter {
  acquire(channel: string): Promise<void>;
}

export interface RateLimiterOptions {
  /** Messages per second per channel; 0 or Infinity disables the limit. */
  perSecond: number;
  /** Monotonic time in ms; default `performance.now`. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Resolves after `ms` milliseconds (real time). */
export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Given a rate, returns a limiter that spaces the sends of each channel `1000 / perSecond` ms apart;
 * the first send of an idle channel goes at once.
 *
 * @example
 * const limiter = createRateLimiter({ perSecond: 1 });
 * await limiter.acquire('chat'); // at once
 * await limiter.acquire('chat'); // about a second later
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { perSecond } = options;
  if (!(perSecond > 0) || perSecond === Infinity) return { acquire: () => Promise.resolve() };
  const interval = 1000 / perSecond;
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? realSleep;
  const nextFree = new Map<string, number>();
  return {
    acquire(channel) {
      const t = now();
      const slot = Math.max(t, nextFree.get(channel) ?? t);
      nextFree.set(channel, slot + interval); // reserve synchronously: concurrent callers queue up
      return slot > t ? sleep(slot - t) : Promise.resolve();
    },
  };
}
