/**
 * The options of the retention service and their resolution into the runtime every adapter (the
 * Express app and the node:http fast path) shares: one store, one clock, one dispatcher.
 */
import {
  assessSubscriber,
  planDispatch,
  resolveConfig,
  shouldAutoDispatch,
  type ConfigCalibration,
  type ConfigOverrides,
  type DispatchRouting,
  type Urgency,
  type Subscriber,
  type SubscriberStore,
  type TenureConfig,
} from '@tenure/core';
import { serviceConfigOf, type ServiceConfig } from '../config/serviceConfig.js';
import { wallClock, type Clock } from '../clock/clock.js';
import { createDispatcher, type Dispatcher } from '../dispatch/dispatcher.js';
import type { DispatchLog } from '../dispatch/dispatchLog.js';
import { createRateLimiter, realSleep } from '../dispatch/rateLimiter.js';
import { DEFAULT_RETRY_POLICY } from '../dispatch/retryPolicy.js';
import { createBearerMatcher, createSecretMatcher, type SecretMatcher } from '../http/secretMatcher.js';
import { createLogger, type Logger } from '../log/logger.js';
import type { AlertWebhookNotifier } from '../notify/alertWebhookNotifier.js';
import type { Notifier } from '../notify/notifier.js';
import { createMemorySubscriberStore } from '../store/memorySubscriberStore.js';
import type { OfferGrants } from '../offers/offerGrants.js';
import { offerGrantsOf, type OffersOptions } from '../offers/offersOptions.js';
import { instrumentStore } from '../metrics/instrumentStore.js';
import { createRetentionMetrics, type RetentionMetrics } from '../metrics/retentionMetrics.js';
import { storeContext } from '../store/storeContext.js';
import type { DispatchOptions } from './dispatchOptions.js';
import { probeReadiness } from './readiness.js';
import { startAtRiskSweep } from './startAtRiskSweep.js';

export type { DispatchOptions } from './dispatchOptions.js';

/** Options of `createRetentionApp`, `createRetentionRequestListener` and `startRetentionServer`. */
export interface RetentionOptions {
  /** Default: a new in-memory store. The service closes it on shutdown. */
  store?: SubscriberStore;
  /**
   * Where SANDBOX webhooks are kept, apart from production (never scored into production lists,
   * never dispatched); read with `?environment=sandbox`. Default: a new in-memory store. The
   * service closes it on shutdown.
   */
  sandboxStore?: SubscriberStore;
  /**
   * Every this many ms, re-materialize the at-risk rows whose `rescore_at` has passed (batches of
   * 1000), so queries find little to refresh. Default 1000; 0 turns it off (answers stay exact).
   */
  sweepIntervalMs?: number;
  /** Alert channels: at most one email and one chat notifier. Default none (alerts are skipped and logged). */
  notifiers?: readonly Notifier[];
  /**
   * Signed webhook endpoints (`createAlertWebhookNotifier`, names unique): each receives the alerts
   * of its urgencies. Enough alone for auto-dispatch. Default none.
   */
  alertWebhooks?: readonly AlertWebhookNotifier[];
  /** Default: wall clock. */
  clock?: Clock;
  /** Rule overrides (merged over DEFAULT_CONFIG) or a full configuration. */
  config?: ConfigOverrides | TenureConfig;
  /**
   * A calibration (the mapping `calibrate` returns, with the `window` it was fitted on): API
   * answers, alerts and the dashboard then show each score's churn probability. Default none.
   */
  calibration?: ConfigCalibration | undefined;
  /** What `GET /api/config` names as the configuration's source (e.g. a file path). Default `default`, or `options` when `config`, `calibration` or `dispatch.cooldownMs(s)` is given. */
  configSource?: string | undefined;
  /** Default: pino at info level to stdout. */
  logger?: Logger;
  /** Shown by GET /health and in alerts. Default "tenure". */
  serviceName?: string;
  /** BILLING_WEBHOOK_AUTH_KEY: the exact Authorization header value of webhook calls. Unset = no check. */
  webhookAuthKey?: string | undefined;
  /** TENURE_API_KEY: `/api/*` requires `Authorization: Bearer <key>`. Unset = no check. */
  apiKey?: string | undefined;
  /** METRICS_PUBLIC: serve `GET /metrics` without the API key even when one is set. Default false. */
  metricsPublic?: boolean;
  dispatch?: DispatchOptions;
  /**
   * One-click offers granted through RevenueCat's API v2 (`resolveOffers` of the configuration
   * file's `offers`), the secret key, the project and optionally the base URL (default
   * `https://api.revenuecat.com/v2`). Default none: the offer route answers 400.
   */
  offers?: OffersOptions;
}

/** What the handlers share. Internal: built once per app or listener. */
export interface RetentionRuntime {
  store: SubscriberStore;
  /** SANDBOX events and their subscribers: readable, never dispatched. */
  sandboxStore: SubscriberStore;
  clock: Clock;
  config: TenureConfig;
  /** The calibration, or null: without one, answers and alerts carry no probability. */
  calibration: ConfigCalibration | null;
  /** The effective configuration, its source and hash (`GET /api/config`). */
  serviceConfig: ServiceConfig;
  logger: Logger;
  serviceName: string;
  webhookAuth: SecretMatcher;
  apiAuth: SecretMatcher;
  dispatcher: Dispatcher;
  dispatchLog: DispatchLog;
  autoDispatch: boolean;
  notifiers: readonly Notifier[];
  /** Where alerts go beyond email and chat: the webhook endpoints and their urgencies (`planDispatch`'s routing). */
  routing: DispatchRouting;
  /** The webhook endpoints: name, URL origin (a path or query may hold a token) and urgencies, never the secret (`GET /api/config`). */
  alertWebhooks: readonly { name: string; origin: string; urgencies: readonly Urgency[] }[];
  /** The offers and their grants; undefined when none are configured. */
  offers: OfferGrants | undefined;
  /** Auto-dispatch for one subscriber (called after a webhook's response); undefined when off. */
  afterApplied: ((subscriber: Subscriber) => void) | undefined;
  /** Prometheus metrics of this runtime (its own registry). */
  metrics: RetentionMetrics;
  /** `GET /metrics` needs no API key. */
  metricsPublic: boolean;
  /** Null when the stores answer and the service is not shutting down, else why not (`GET /ready`). */
  ready(): Promise<string | null>;
  /**
   * Once per runtime (later calls return the first call's promise): takes up the deliveries the
   * dispatch log holds unfinished (`Dispatcher.resume`), logs how many, and resolves with that
   * number once each has a final outcome.
   */
  resumeDeliveries(): Promise<number>;
  /**
   * Stops the at-risk sweep, waits for in-flight dispatches (until `signal` aborts: the alerts left
   * are recorded as failed and their cooldowns released), then closes notifiers and the store.
   */
  close(signal?: AbortSignal): Promise<void>;
}

/**
 * Given the options, returns the runtime with every default filled in.
 *
 * @example
 * const runtime = resolveRuntime({ serviceName: 'acme-retention' });
 */
export function resolveRuntime(options: RetentionOptions = {}): RetentionRuntime {
  const rawStore = options.store ?? createMemorySubscriberStore();
  const sandboxStore = options.sandboxStore ?? createMemorySubscriberStore();
  const clock = options.clock ?? wallClock();
  const config = resolveConfig(options.config);
  // Gauges read the store itself, so a scrape's queries stay out of the at-risk latency histogram.
  const metrics = createRetentionMetrics({ store: rawStore, context: () => storeContext({ clock, config }) });
  const store = instrumentStore(rawStore, metrics.storeOperation);
  const serviceName = options.serviceName ?? 'tenure';
  const logger = options.logger ?? createLogger({ service: serviceName });
  const notifiers = options.notifiers ?? [];
  const webhooks = options.alertWebhooks ?? [];
  const names = webhooks.map((hook) => hook.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new Error(`alert webhook endpoint "${twice}" is configured twice`);
  const routing: DispatchRouting = { webhooks: webhooks.map((hook) => ({ name: hook.name, urgencies: hook.urgencies })) };
  const d = options.dispatch ?? {};
  const sleep = d.sleep ?? realSleep;
  const calibration = options.calibration ?? null;
  const cooldownMs = d.cooldownMs ?? 86_400_000;
  const configured = options.config !== undefined || calibration !== null || d.cooldownMs !== undefined || d.cooldownsMs !== undefined;
  const serviceConfig = serviceConfigOf({ rules: config, cooldownMs, cooldownsMs: d.cooldownsMs, calibration, source: options.configSource ?? (configured ? 'options' : 'default') });
  const dispatchLog = d.log ?? store.dispatchLog;
  const dispatcher = createDispatcher({
    notifiers,
    webhooks,
    log: dispatchLog,
    clock,
    logger,
    limiter: createRateLimiter({ perSecond: d.ratePerSecond ?? 1, sleep }),
    retry: { ...DEFAULT_RETRY_POLICY, ...d.retry },
    cooldownMs,
    ...(d.cooldownsMs === undefined ? {} : { cooldownsMs: d.cooldownsMs }),
    ...(calibration === null ? {} : { calibration }),
    sleep,
    serviceName,
    onOutcome: metrics.dispatched,
    ...(d.alertLink === undefined ? {} : { alertLink: d.alertLink }),
  });
  const offers = offerGrantsOf(options.offers, { log: dispatchLog, clock, logger, onOutcome: metrics.offered });
  const autoDispatch = d.auto ?? true;
  let closing = false;
  let resumed: Promise<number> | undefined;
  const sweep = startAtRiskSweep({ store, clock, config, logger, intervalMs: options.sweepIntervalMs ?? 1000 });

  const autoDispatchOne = (subscriber: Subscriber) => {
    try {
      const assessment = assessSubscriber(subscriber, clock.now(), config);
      if (!shouldAutoDispatch(assessment)) return;
      const deliveries = planDispatch([assessment], routing);
      if (dispatcher.canSend) {
        dispatcher.run(deliveries, 'webhook').catch((error: unknown) => {
          logger.error({ err: String(error), customer_id: subscriber.customer_id }, 'auto-dispatch failed');
        });
      }
      if (offers?.hasAuto === true) void offers.grantAuto(deliveries.map((delivery) => delivery.alert));
    } catch (error) {
      logger.error({ err: String(error), customer_id: subscriber.customer_id }, 'auto-dispatch failed');
    }
  };

  return {
    store,
    sandboxStore,
    clock,
    config,
    calibration,
    serviceConfig,
    logger,
    serviceName,
    webhookAuth: createSecretMatcher(options.webhookAuthKey),
    apiAuth: createBearerMatcher(options.apiKey),
    dispatcher,
    dispatchLog,
    offers,
    autoDispatch,
    notifiers,
    routing,
    alertWebhooks: webhooks.map((hook) => ({ name: hook.name, origin: hook.origin, urgencies: hook.urgencies })),
    // Auto-dispatch only ever sends immediate alerts: without a channel or an automatic offer there is nothing to schedule.
    afterApplied: autoDispatch && (dispatcher.canSend || offers?.hasAuto === true) ? autoDispatchOne : undefined,
    metrics,
    metricsPublic: options.metricsPublic ?? false,
    // The stores themselves (not the instrumented one): a probe's lookups stay out of the store latency metrics.
    ready: () => probeReadiness([{ name: 'the store', store: rawStore }, { name: 'the sandbox store', store: sandboxStore }], () => closing),
    resumeDeliveries: () =>
      (resumed ??= dispatcher.resume().then((count) => {
        if (count > 0) logger.info({ deliveries: count }, 'unfinished deliveries taken up at start');
        return count;
      })),
    async close(signal) {
      closing = true; // from now on /ready answers 503, so a load balancer stops sending traffic
      await sweep.stop(); // before the store closes under it
      await Promise.all([dispatcher.drain(signal), offers?.idle()]);
      await Promise.allSettled(notifiers.map((n) => n.close?.()));
      await Promise.all([store.close(), sandboxStore.close()]);
    },
  };
}
