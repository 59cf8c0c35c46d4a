/**
 * The simulator facade: holds the current world of the pure machine (`transition`), runs commands at
 * the virtual clock's time and applies their effects (history, listeners, webhook outbox). The HTTP
 * binding, scenarios and the CLI sit on top.
 */
import { parseDuration, addDuration } from '../internal/duration.js';
import { seededRandom } from '../internal/random.js';
import { createOutbox, type DeliveryRecord, type Outbox } from '../delivery/createOutbox.js';
import {
  DEFAULT_CONCURRENCY,
  NO_FAULTS,
  faultsSchema,
  scheduleOf,
  type WebhookConfig,
  type WebhookConfigInput,
} from '../delivery/deliveryConfig.js';
import { realScheduler, type Scheduler } from '../delivery/scheduler.js';
import { configuredTargets, type DeliveryTarget } from '../delivery/targets.js';
import { integrationTargets } from '../machine/integrations.js';
import { httpTransport, type Transport } from '../delivery/transport.js';
import { fail, type Result } from '../machine/apiError.js';
import { pendingJobs, type Job } from '../machine/clock.js';
import { VIRTUAL_CLOCK_END } from '../machine/clockBounds.js';
import type { CommandOf, CommandValues, SimCommandType } from '../machine/commands.js';
import { lookupKey } from '../machine/idempotency.js';
import { toProduct, type ProductInput } from '../machine/products.js';
import type { Product, EventSettings, IdempotencyRecord, World } from '../machine/world.js';
import { createWorld } from '../machine/createWorld.js';
import { transition } from '../machine/transition.js';
import type { IntegrationInput } from '../machine/integrations.js';
import { projectExists } from '../machine/projects.js';
import { createEventHistory } from './eventHistory.js';
import type { WebhookBody } from '../machine/webhookEvents.js';

export interface BillingSimulatorOptions {
  /** Seed of every id and fault decision; the same seed and steps give the same run. */
  seed?: string | number;
  /** Start of the virtual clock (epoch ms). Default 2026-01-01T00:00:00Z. */
  now?: number;
  webhook?: WebhookConfigInput;
  /** Timers of webhook delivery (retries, delays). Default: real timers. */
  scheduler?: Scheduler;
  /** How a webhook is sent. Default: node:http with keep-alive (`httpTransport`). */
  transport?: Transport;
  app_id?: string;
  store?: string;
  environment?: 'SANDBOX' | 'PRODUCTION';
  /** The project that exists from the start and that /sim routes use when none is named. Default `proj_sim`. */
  default_project_id?: string;
  /** More projects that exist from the start (and again after a reset), ids of 1–20 characters. */
  projects?: string[];
  /**
   * Webhook integrations that exist from the start (and again after a reset), in the default project
   * unless `project_id` names another: what the CLI's `--webhook-url` / `--webhook-auth` create.
   */
  integrations?: (IntegrationInput & { project_id?: string })[];
  country_code?: string;
  /** Products to put in the catalog at start (and back after a reset). */
  products?: ProductInput[];
}

export interface BillingSimulator {
  readonly outbox: Outbox;
  readonly seed: string;
  /** The default project and the fields of emitted events. */
  readonly settings: EventSettings;
  /** The current world: immutable data, replaced by every command. */
  world(): World;
  /** Runs one command at the current virtual time and applies its effects (events delivered, listeners called). */
  dispatch<T extends SimCommandType>(command: CommandOf<T>): Result<CommandValues[T]>;
  now(): number;
  /** Moves the virtual clock by an ISO 8601 duration or ms, running every job due. */
  advanceBy(by: string | number): Result<{ now: number; jobs_run: Job[] }>;
  advanceTo(at: number): Result<{ now: number; jobs_run: Job[] }>;
  pendingJobs(): Job[];
  /** The remembered response to an Idempotency-Key of a project (forgotten after 24 h of virtual time). */
  idempotencyRecord(projectId: string, key: string): IdempotencyRecord | undefined;
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
  /**
   * Clears the world: customers, subscriptions, currencies, ledgers, idempotency keys, products added
   * since the start (the `products` option stays), the event history and the delivery log (pending
   * retries are cancelled); the clock goes back to where it started, or to `now`. The PRNGs restart
   * from the seed, so the same steps after a reset give the same ids as after the start. The webhook
   * configuration and event listeners are kept.
   */
  reset(options?: { now?: number }): Result<{ now: number }>;
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
    concurrency: input.concurrency ?? current.concurrency,
    environment: input.environment === undefined ? current.environment : input.environment,
    event_types: input.event_types === undefined ? current.event_types : input.event_types,
    faults: input.faults === undefined ? current.faults : faultsSchema.parse(input.faults),
  };
}

function initialProducts(inputs: readonly ProductInput[]): Product[] {
  return inputs.map((p) => {
    const r = toProduct(p);
    if (!r.ok) throw new Error(`product ${p.id}: ${r.message}`);
    return r.product;
  });
}

const NO_GRANTS = { grants: false } as const;

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
    { url: null, authorization: null, retry_schedule_ms: scheduleOf('real'), timeout_ms: 60_000, concurrency: DEFAULT_CONCURRENCY, environment: null, event_types: null, faults: NO_FAULTS },
    options.webhook ?? {},
  );
  const start = options.now ?? DEFAULT_START;
  const products = initialProducts(options.products ?? []);
  /** A new world with the configured projects and webhook integrations in it. */
  const freshWorld = (at: number): World => {
    let w = createWorld(settings, seed, at, products);
    for (const id of new Set(options.projects ?? [])) {
      if (id === settings.default_project_id) continue;
      const out = transition(w, { type: 'create_project', project_id: id }, at);
      if (!out.ok) throw new Error(`project ${id}: ${out.error.message}`);
      w = out.world;
    }
    for (const { project_id, ...input } of options.integrations ?? []) {
      const projectId = project_id ?? settings.default_project_id;
      const made = projectExists(w, projectId) ? null : transition(w, { type: 'create_project', project_id: projectId }, at);
      if (made !== null && made.ok) w = made.world;
      const out = transition(w, { type: 'create_integration', project_id: projectId, input }, at);
      if (!out.ok) throw new Error(`integration ${input.url}: ${out.error.message}`);
      w = out.world;
    }
    return w;
  };
  let world = freshWorld(start);
  // Every event so far, as the transitions' logs: bodies are built when read or sent.
  const history = createEventHistory();
  const listeners = new Set<(body: WebhookBody) => void>();
  // Where a project's events go: the configured webhook, then the project's webhook integrations.
  // Derived again only when the configuration or the world's integrations change (not per event).
  let targetsKey: { config: WebhookConfig; integrations: unknown } | null = null;
  const targetsByProject = new Map<string | null, DeliveryTarget[]>();
  const targetsOf = (projectId: string | null): DeliveryTarget[] => {
    if (targetsKey === null || targetsKey.config !== webhook || targetsKey.integrations !== world.api.integrations) {
      targetsKey = { config: webhook, integrations: world.api.integrations };
      targetsByProject.clear();
    }
    let targets = targetsByProject.get(projectId);
    if (targets === undefined) {
      targets = [...configuredTargets(webhook), ...integrationTargets(world, projectId)];
      targetsByProject.set(projectId, targets);
    }
    return targets;
  };
  const outbox = createOutbox({
    config: () => webhook,
    scheduler: options.scheduler ?? realScheduler(),
    transport: options.transport ?? httpTransport(),
    random: seededRandom(`${seed}:faults`),
    targets: targetsOf,
    events: history,
  });

  function run<T extends SimCommandType>(command: CommandOf<T>, at: number): Result<CommandValues[T]> {
    // The facade applies events only: the credit changes are not gathered.
    const out = transition(world, command, at, NO_GRANTS);
    if (!out.ok) return out;
    world = out.world;
    const log = out.log;
    const first = history.length;
    history.append(log);
    for (let i = 0; i < log.length; i += 1) {
      outbox.queueEvent(first + i, log.project(i));
      // (Iterating an empty set still allocates an iterator: 300 k of them in a month advance.)
      if (listeners.size > 0) {
        const body = history.body(first + i);
        for (const l of listeners) l(body);
      }
    }
    return { ok: true, value: out.value };
  }

  return {
    outbox,
    seed,
    settings,
    world: () => world,
    dispatch: (command) => run(command, world.now),
    now: () => world.now,
    advanceBy(by) {
      const d = parseDuration(by);
      if (d === null) return fail('parameter_error', 'Expected an ISO 8601 duration or ms > 0', 'by');
      return run({ type: 'advance' }, addDuration(world.now, d));
    },
    advanceTo: (at) => run({ type: 'advance' }, at),
    pendingJobs: () => pendingJobs(world),
    idempotencyRecord: (projectId, key) => lookupKey(world, projectId, key),
    events: () => history.since(0),
    eventCount: () => history.length,
    eventsSince: (index) => history.since(index),
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
    reset(resetOptions = {}) {
      const at = resetOptions.now ?? start;
      if (!Number.isSafeInteger(at) || at < 0 || at > VIRTUAL_CLOCK_END) {
        return fail('parameter_error', 'now must be an instant up to 2100-01-01T00:00:00Z', 'now');
      }
      world = freshWorld(at);
      history.clear();
      outbox.reset(seededRandom(`${seed}:faults`));
      return { ok: true, value: { now: at } };
    },
    close: () => outbox.close(),
  };
}
