/**
 * The billing simulator's state machine: projects, currencies, customers, subscriptions and ledgers
 * on a virtual clock, plus the webhook outbox. Framework-free; the HTTP binding and the CLI sit on top.
 */
import { parseDuration, addDuration } from '../internal/duration.js';
import { seededRandom } from '../internal/random.js';
import { createOutbox, type DeliveryRecord, type Outbox } from '../delivery/createOutbox.js';
import {
  NO_FAULTS,
  faultsSchema,
  scheduleOf,
  type WebhookConfig,
  type WebhookConfigInput,
} from '../delivery/deliveryConfig.js';
import { realScheduler, type Scheduler } from '../delivery/scheduler.js';
import { fetchTransport, type Transport } from '../delivery/transport.js';
import { fail, type Result } from './apiError.js';
import { advanceTo, pendingJobs, type Job } from './clock.js';
import type { EventSettings, SimContext } from './context.js';
import { toProduct, type ProductInput } from './products.js';
import type { WebhookBody } from './webhookEvents.js';

export interface BillingSimulatorOptions {
  /** Seed of every id and fault decision; the same seed and steps give the same run. */
  seed?: string | number;
  /** Start of the virtual clock (epoch ms). Default 2026-01-01T00:00:00Z. */
  now?: number;
  webhook?: WebhookConfigInput;
  /** Timers of webhook delivery (retries, delays). Default: real timers. */
  scheduler?: Scheduler;
  /** How a webhook is sent. Default: global fetch. */
  transport?: Transport;
  app_id?: string;
  store?: string;
  environment?: 'SANDBOX' | 'PRODUCTION';
  default_project_id?: string;
  country_code?: string;
  /** Products to put in the catalog at start. */
  products?: ProductInput[];
}

export interface BillingSimulator {
  /** The state and helpers every operation works on. */
  readonly ctx: SimContext;
  readonly outbox: Outbox;
  readonly seed: string;
  now(): number;
  /** Moves the virtual clock by an ISO 8601 duration or ms, running every job due. */
  advanceBy(by: string | number): Result<{ now: number; jobs_run: Job[] }>;
  advanceTo(at: number): Result<{ now: number; jobs_run: Job[] }>;
  pendingJobs(): Job[];
  /** Every webhook body emitted so far, in order. */
  events(): WebhookBody[];
  /** How many webhook bodies were emitted so far (cheap, unlike `events().length`). */
  eventCount(): number;
  /** The bodies emitted from position `index` on: what one operation emitted, without copying the history. */
  eventsSince(index: number): WebhookBody[];
  /** Calls `listener` with each event as it is emitted; returns the unsubscribe function. */
  onEvent(listener: (body: WebhookBody) => void): () => void;
  webhookConfig(): WebhookConfig;
  /** Changes the webhook target, retry schedule or faults; omitted fields keep their value. */
  configureWebhook(input: WebhookConfigInput): WebhookConfig;
  deliveries(): DeliveryRecord[];
  close(): void;
}

/**
 * Where the virtual clock starts when no `now` is given: 2026-01-01T00:00:00Z.
 *
 * @example
 * createBillingSimulator().now() === DEFAULT_START; // true
 */
export const DEFAULT_START = Date.UTC(2026, 0, 1);

/** Applies a partial webhook configuration to the current one. */
function mergeWebhook(current: WebhookConfig, input: WebhookConfigInput): WebhookConfig {
  return {
    url: input.url === undefined ? current.url : input.url,
    authorization: input.authorization === undefined ? current.authorization : input.authorization,
    retry_schedule_ms: input.retry_schedule === undefined ? current.retry_schedule_ms : [...scheduleOf(input.retry_schedule)],
    timeout_ms: input.timeout_ms ?? current.timeout_ms,
    faults: input.faults === undefined ? current.faults : faultsSchema.parse(input.faults),
  };
}

/**
 * Given options, returns a new simulator. The clock starts at `now` and moves only when advanced;
 * webhooks go to `webhook.url` (none when unset) with `webhook.authorization` verbatim.
 *
 * @example
 * const sim = createBillingSimulator({ seed: 'demo', webhook: { url: 'http://127.0.0.1:3000/webhook', retry_schedule: 'fast' } });
 * sim.advanceBy('P1M');
 */
export function createBillingSimulator(options: BillingSimulatorOptions = {}): BillingSimulator {
  const seed = String(options.seed ?? `${Date.now()}-${Math.random()}`);
  const settings: EventSettings = {
    app_id: options.app_id ?? 'app_sim',
    store: options.store ?? 'TEST_STORE',
    environment: options.environment ?? 'SANDBOX',
    default_project_id: options.default_project_id ?? 'proj_sim',
    country_code: options.country_code ?? 'US',
  };
  let webhook: WebhookConfig = mergeWebhook(
    { url: null, authorization: null, retry_schedule_ms: scheduleOf('real'), timeout_ms: 60_000, faults: NO_FAULTS },
    options.webhook ?? {},
  );
  const history: WebhookBody[] = [];
  const listeners = new Set<(body: WebhookBody) => void>();
  const outbox = createOutbox({
    config: () => webhook,
    scheduler: options.scheduler ?? realScheduler(),
    transport: options.transport ?? fetchTransport(),
    random: seededRandom(`${seed}:faults`),
  });
  const ctx: SimContext = {
    state: { now: options.now ?? DEFAULT_START, projects: new Map(), subscriptions: new Map(), products: new Map(), seq: 0 },
    settings,
    random: seededRandom(seed),
    emit(body) {
      history.push(body);
      outbox.enqueue(body);
      for (const l of listeners) l(body);
    },
  };
  for (const p of options.products ?? []) {
    const r = toProduct(p);
    if (!r.ok) throw new Error(`product ${p.id}: ${r.message}`);
    ctx.state.products.set(r.product.id, r.product);
  }
  return {
    ctx,
    outbox,
    seed,
    now: () => ctx.state.now,
    advanceBy(by) {
      const d = parseDuration(by);
      if (d === null) return fail('parameter_error', 'Expected an ISO 8601 duration or ms > 0', 'by');
      return advanceTo(ctx, addDuration(ctx.state.now, d));
    },
    advanceTo: (at) => advanceTo(ctx, at),
    pendingJobs: () => pendingJobs(ctx),
    events: () => [...history],
    eventCount: () => history.length,
    eventsSince: (index) => history.slice(index),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    webhookConfig: () => webhook,
    configureWebhook(input) {
      webhook = mergeWebhook(webhook, input);
      return webhook;
    },
    deliveries: () => outbox.log(),
    close: () => outbox.close(),
  };
}
