/** Webhook target, filters, concurrency, retry schedule and fault injection settings, with their zod schemas. */
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
 * How many deliveries are in flight at once by default. The billing service documents no ordering
 * guarantee; 8 keeps a loopback receiver busy without opening a socket per event.
 *
 * @example
 * sim.configureWebhook({ concurrency: 1 }); // one at a time, in emission order
 */
export const DEFAULT_CONCURRENCY = 8;
/** The most deliveries in flight at once. */
export const MAX_CONCURRENCY = 256;

/** The environment filter of a webhook integration (API v2's lower-case values). */
export const webhookEnvironmentSchema = z.enum(['production', 'sandbox']);
export type WebhookEnvironment = z.output<typeof webhookEnvironmentSchema>;
/** An event type as API v2's `WebhookEventType` writes it: lower case (new types may appear). */
export const webhookEventTypeSchema = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'Expected a lower-case event type such as "renewal"');

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
  /** Deliveries in flight at once (default 8; 1 delivers one at a time in emission order). */
  concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional(),
  /** Only events of this store environment (`production`, `sandbox`); null: both. */
  environment: webhookEnvironmentSchema.nullable().optional(),
  /** Only events of these types (lower case, as API v2's `WebhookEventType`); null: all. */
  event_types: z.array(webhookEventTypeSchema).min(1).nullable().optional(),
  faults: faultsSchema.optional(),
});
export type WebhookConfigInput = z.input<typeof webhookConfigSchema>;

export interface WebhookConfig {
  url: string | null;
  authorization: string | null;
  retry_schedule_ms: number[];
  timeout_ms: number;
  concurrency: number;
  environment: WebhookEnvironment | null;
  event_types: string[] | null;
  faults: Faults;
}

/** Resolves a schedule name (or explicit delays) to delays in ms. */
export const scheduleOf = (s: 'real' | 'fast' | number[]): number[] =>
  s === 'real' ? REAL_RETRY_SCHEDULE_MS : s === 'fast' ? FAST_RETRY_SCHEDULE_MS : s;
