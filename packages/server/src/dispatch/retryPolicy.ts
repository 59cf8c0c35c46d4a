/** How failed deliveries are retried. */

export interface RetryPolicy {
  /** Total attempts, the first included (1 = no retry). */
  attempts: number;
  /** Delay before the second attempt; doubles for each further attempt. */
  baseDelayMs: number;
  /** Upper bound of one delay. */
  maxDelayMs: number;
}

/**
 * The default policy: three attempts, 1 s then 2 s apart, delays capped at 30 s.
 *
 * @example
 * createRetentionApp({ dispatch: { retry: { ...DEFAULT_RETRY_POLICY, attempts: 5 } } });
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 };

/**
 * Given a policy and the number of the attempt that just failed (1-based), returns the delay before
 * the next one: exponential, capped. Deterministic (no jitter: alerts are few and per channel). Pure.
 *
 * @example
 * backoffDelay(DEFAULT_RETRY_POLICY, 2); // 2000
 */
export function backoffDelay(policy: RetryPolicy, failedAttempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempt - 1));
}
