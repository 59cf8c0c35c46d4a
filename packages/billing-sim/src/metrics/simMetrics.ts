/**
 * The simulator's Prometheus metrics: one registry per request handler (never prom-client's global
 * one, so two simulators in one process keep apart): webhook deliveries by outcome and their
 * duration, the virtual clock, API requests by route pattern and status, and rate-limited answers
 * by domain. Names and labels: docs/operations.md.
 */
import { SlotCounter, SlotHistogram, asPromMetric } from '@tenure/http-edge';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { DELIVERY_OUTCOMES } from '../delivery/createOutbox.js';
import type { RateDomain } from '../http/rateLimit/rateLimits.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';

/** Webhook attempt durations in seconds: 1 ms to 30 s (the real service waits up to a minute). */
const DELIVERY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The simulator's metrics: what the HTTP handler reports, and the scrape. */
export interface SimMetrics {
  /** One answered API request: its method, its route pattern (`other` when no route matched) and status. */
  request(method: string, route: string, status: number): void;
  /** One request refused by a domain's rate limit (429). */
  rateLimited(domain: RateDomain): void;
  /** The registry (built on first use: default process metrics included). */
  registry(): Registry;
  /** The exposition: the text and its content type. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

/**
 * Given a simulator, returns its metrics and starts counting its webhook deliveries (in typed
 * arrays; API requests in prom-client counters, one per request); the registry and prom-client's
 * default process metrics are set up on the first scrape. Impure (observes the simulator's outbox).
 *
 * @example
 * const metrics = createSimMetrics(sim);
 * const { text } = await metrics.scrape(); // tenure_sim_clock_seconds ...
 */
export function createSimMetrics(sim: BillingSimulator): SimMetrics {
  // Created unregistered: they count from the start, and join a registry on the first scrape.
  // Deliveries are counted in typed arrays and read into the exposition at each scrape
  // (@tenure/http-edge's slot metrics, as the retention service counts): a month of the simulator
  // delivers hundreds of thousands of events, and prom-client's `inc` and `observe` check and hash
  // labels at every call (~400 ns an event together; docs/operations.md).
  const deliveries = new SlotCounter(
    'tenure_sim_webhook_deliveries_total',
    'Webhook delivery steps by outcome: delivered (200), retried (failed, will retry), failed (last attempt failed), dropped (drop fault), duplicate (duplicate fault).',
    ['outcome'],
    [DELIVERY_OUTCOMES],
  );
  const outcomeSlot = new Map(DELIVERY_OUTCOMES.map((outcome, i) => [outcome, deliveries.slot(i)]));
  // No labels: its one series is listed from the start, zero buckets before the first delivery.
  const duration = new SlotHistogram(
    'tenure_sim_webhook_delivery_duration_seconds',
    'Duration of each webhook delivery attempt in seconds (the delivery log’s duration_ms).',
    [],
    [],
    DELIVERY_BUCKETS,
  );
  const requests = new Counter({
    name: 'tenure_sim_http_requests_total',
    help: 'API v2 and /sim requests by method, route pattern (other when none matched) and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [],
  });
  const limited = new Counter({
    name: 'tenure_sim_rate_limited_total',
    help: 'API v2 requests refused with 429 by their rate-limit domain.',
    labelNames: ['domain'],
    registers: [],
  });
  sim.outbox.observe((outcome, durationMs) => {
    deliveries.add(outcomeSlot.get(outcome)!);
    if (durationMs !== null) duration.observe(0, durationMs / 1000);
  });

  let registry: Registry | undefined;
  const build = (): Registry => {
    const r = new Registry();
    collectDefaultMetrics({ register: r });
    r.registerMetric(asPromMetric(deliveries));
    r.registerMetric(asPromMetric(duration));
    r.registerMetric(requests);
    r.registerMetric(limited);
    new Gauge({
      name: 'tenure_sim_clock_seconds',
      help: 'The virtual clock (epoch seconds).',
      registers: [r],
      collect() {
        this.set(sim.now() / 1000);
      },
    });
    return r;
  };
  return {
    request(method, route, status) {
      requests.inc({ method, route, status: String(status) });
    },
    rateLimited(domain) {
      limited.inc({ domain });
    },
    registry: () => (registry ??= build()),
    async scrape() {
      const r = (registry ??= build());
      return { contentType: r.contentType, text: await r.metrics() };
    },
  };
}
