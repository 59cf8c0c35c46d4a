/** How the retention service dispatches alerts: the `dispatch` option of `createRetentionApp` and the other bindings. */
import type { CooldownOverrides } from '../config/serviceConfig.js';
import type { DispatchLog } from '../dispatch/dispatchLog.js';
import type { RetryPolicy } from '../dispatch/retryPolicy.js';

/** How alerts are dispatched. Every field has a default. */
export interface DispatchOptions {
  /** Dispatch when a webhook raises a subscriber to an immediate recommendation. Default true. */
  auto?: boolean;
  /** Messages per second per channel (0 = unlimited). Default 1. */
  ratePerSecond?: number;
  /** No second alert for the same subscriber, action and channel within this many ms. Default 24 h. */
  cooldownMs?: number;
  /** Cooldowns (ms) of some urgencies and channels (`{ soon: { email: 72 * 3_600_000 } }`); the others take `cooldownMs`. */
  cooldownsMs?: CooldownOverrides;
  /** Retries with exponential backoff on 5xx and network errors. Default 3 attempts, 1 s base. */
  retry?: Partial<RetryPolicy>;
  /** Where attempts and cooldowns are kept. Default the store's own log (durable with a durable store, shared by replicas). */
  log?: DispatchLog;
  /** Injectable waiting (tests): used for rate-limit spacing and retry backoff. */
  sleep?: (ms: number) => Promise<void>;
  /** A link to put in alerts, e.g. your admin page for the customer. */
  alertLink?: (customerId: string) => string | undefined;
}
