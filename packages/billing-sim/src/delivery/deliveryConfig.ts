/** Webhook target, retry schedule and fault injection settings, with their zod schemas. */
import { z } from 'zod';

/**
 * The billing service's retry delays: 5 retries at 5, 10, 20, 40 and 80 minutes.
 *
 * @example
 * sim.configureWebhook({ retry_schedule: 'real' }); // uses REAL_RETRY_SCHEDULE_MS
 */
export const REAL_RETRY_SCHEDULE_MS = [5, 10, 20, 40, 80].map((m) => m * 60_000);
/**
 * The same shape for local runs: 50, 100, 200, 400, 800 ms.
 *
 * @example
 * sim.configureWebhook({ retry_schedule: 'fast' }); // uses FAST_RETRY_SCHEDULE_MS
 */
export const FAST_RETRY_SCHEDULE_MS = [50, 100, 200, 400, 800];

/**
 * Fault injection rates (0..1) and their parameters; omitted rates are 0.
 *
 * @example
 * faultsSchema.parse({ duplicate_rate: 0.1 }).reorder_window; // 3
 */
export const faultsSchema = z.strictObject({
  /** Chance that a delivered event is delivered a second time right after. */
  duplicate_rate: z.number().min(0).max(1).default(0),
  /** Chance that an event swaps places with one of the next `reorder_window` queued events. */
  reorder_rate: z.number().min(0).max(1).default(0),
  reorder_window: z.number().int().min(1).max(100).default(3),
  /** Chance that an event is held back `delay_ms` before its first attempt. */
  delay_rate: z.number().min(0).max(1).default(0),
  delay_ms: z.number().int().min(0).max(3_600_000).default(1000),
  /** Chance that an event is never sent (logged as dropped; it can still be redelivered by id). */
  drop_rate: z.number().min(0).max(1).default(0),
});
export type Faults = z.output<typeof faultsSchema>;
export const NO_FAULTS: Faults = faultsSchema.parse({});

/**
 * The body of `POST /sim/webhook`: target, Authorization value, retry schedule, timeout, faults.
 *
 * @example
 * webhookConfigSchema.parse({ url: 'http://127.0.0.1:3000/webhook', retry_schedule: 'fast' });
 */
export const webhookConfigSchema = z.strictObject({
  /** Where events are POSTed; null stops delivery (events are still recorded). */
  url: z.url({ protocol: /^https?$/ }).nullable().optional(),
  /** Sent verbatim as the Authorization header; null sends none. */
  authorization: z.string().max(5000).nullable().optional(),
  /** `real` (5…80 min), `fast` (50…800 ms) or explicit delays in ms. */
  retry_schedule: z.union([z.enum(['real', 'fast']), z.array(z.number().int().min(0)).max(20)]).optional(),
  /** Per-attempt timeout (the billing service disconnects after 60 s). */
  timeout_ms: z.number().int().min(1).max(600_000).optional(),
  faults: faultsSchema.optional(),
});
export type WebhookConfigInput = z.input<typeof webhookConfigSchema>;

export interface WebhookConfig {
  url: string | null;
  authorization: string | null;
  retry_schedule_ms: number[];
  timeout_ms: number;
  faults: Faults;
}

/** Resolves a schedule name (or explicit delays) to delays in ms. */
export const scheduleOf = (s: 'real' | 'fast' | number[]): number[] =>
  s === 'real' ? REAL_RETRY_SCHEDULE_MS : s === 'fast' ? FAST_RETRY_SCHEDULE_MS : s;
