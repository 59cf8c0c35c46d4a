/**
 * The retention service's Prometheus metrics: one registry per app (never prom-client's global
 * one, so two apps in one process keep apart), the counters and histograms the request paths feed,
 * and the subscriber gauges read from the store's at-risk totals at scrape time. Metric names,
 * labels and meanings: docs/operations.md.
 */
import { ACTIONS, RISK_BANDS, SUBSCRIBER_STATES, type Action, type DeliveryChannel, type RiskBand, type SubscriberState, type StoreContext, type SubscriberStore } from '@tenure/core';
import { SlotCounter, SlotHistogram, asPromMetric } from '@tenure/http-edge';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { DISPATCH_OUTCOMES, type DispatchOutcome } from '../dispatch/dispatchLog.js';
import { OFFER_OUTCOMES, type OfferOutcome } from '../offers/offerOutcome.js';
import { ROUTE_LABELS, STATUS_CLASSES, statusClassIndex } from './routeLabel.js';
import { WEBHOOK_OUTCOMES, WEBHOOK_TYPE_LABELS, webhookOutcomeIndex, webhookTypeIndex, type WebhookOutcome } from './webhookLabels.js';

/** The stores a webhook event goes to: `environment` label values of `tenure_duplicate_transactions_other_customer_total`. */
export const OCCURRENCE_ENVIRONMENTS = ['production', 'sandbox'] as const;
export type OccurrenceEnvironment = (typeof OCCURRENCE_ENVIRONMENTS)[number];

/** The store operations timed: `store_operation` label values. */
export const STORE_OPERATIONS = ['apply', 'at_risk'] as const;
export type StoreOperation = (typeof STORE_OPERATIONS)[number];

const CHANNELS: readonly DeliveryChannel[] = ['email', 'chat', 'log', 'webhook'];

/** Who started an offer: `trigger` label values of `tenure_offers_total`. */
export const OFFER_TRIGGERS = ['manual', 'auto'] as const;

/** Where the subscriber gauges read from at scrape time: the production store, at the service's now. */
export interface SubscriberSource {
  store: SubscriberStore;
  context(): StoreContext;
}

/** What the service's request paths report, and the scrape. */
export interface RetentionMetrics {
  /** One webhook and what became of it; `type` as received (undefined when it was not read). */
  webhookReceived(type: string | undefined, outcome: WebhookOutcome): void;
  /** One answered request: its route's position in `ROUTE_LABELS`, its status, its duration in seconds. */
  httpRequest(route: number, status: number, seconds: number): void;
  /** One delivery's final outcome on a channel. */
  dispatched(channel: DeliveryChannel, outcome: DispatchOutcome): void;
  /** One store call and its duration in seconds. */
  storeOperation(operation: StoreOperation, seconds: number): void;
  /**
   * One webhook event answered `duplicate` because another customer holds its transaction
   * occurrence (`ApplyOutcome.heldBy`), in the production or the sandbox store.
   */
  occurrenceElsewhere(environment: OccurrenceEnvironment): void;
  /** One offer grant or revoke and what became of it (`OfferOutcome`), by a person (`manual`) or automatic. */
  offered(action: Action, outcome: OfferOutcome, trigger: (typeof OFFER_TRIGGERS)[number]): void;
  /** The registry (built on first use), e.g. to add an app's own metrics. */
  registry(): Registry;
  /** The exposition: the text and its content type. */
  scrape(): Promise<{ contentType: string; text: string }>;
  /** Counters and histograms, for tests and summaries. */
  readonly webhooks: SlotCounter;
  readonly requests: SlotHistogram;
  readonly dispatches: SlotCounter;
  readonly storeOperations: SlotHistogram;
  readonly occurrencesElsewhere: SlotCounter;
  readonly offers: SlotCounter;
}

/**
 * Given where to read subscriber counts from, returns the service's metrics. Counting allocates
 * nothing; the registry, prom-client's default process metrics and the gauges are set up on the
 * first scrape (an app that is never scraped starts no collectors). Impure (reads the store when
 * scraped).
 *
 * @example
 * const metrics = createRetentionMetrics({ store, context: () => ({ now: Date.now(), config }) });
 * metrics.webhookReceived('RENEWAL', 'applied');
 * const { text } = await metrics.scrape();
 */
export function createRetentionMetrics(source: SubscriberSource): RetentionMetrics {
  const webhooks = new SlotCounter(
    'tenure_webhooks_received_total',
    'Webhooks received, by event type (documented types, else other) and what the service did with them.',
    ['type', 'outcome'],
    [WEBHOOK_TYPE_LABELS, WEBHOOK_OUTCOMES],
  );
  const requests = new SlotHistogram(
    'tenure_http_request_duration_seconds',
    'HTTP request duration in seconds, by route pattern (other for paths that are no route) and status class.',
    ['route', 'status_class'],
    [ROUTE_LABELS, STATUS_CLASSES],
  );
  const dispatches = new SlotCounter('tenure_dispatches_total', 'Alert deliveries by channel and final outcome.', ['channel', 'outcome'], [CHANNELS, DISPATCH_OUTCOMES]);
  const storeOperations = new SlotHistogram(
    'tenure_store_operation_duration_seconds',
    'Store call duration in seconds: apply (one webhook event) and at_risk (one at-risk page).',
    ['operation'],
    [STORE_OPERATIONS],
  );
  const occurrencesElsewhere = new SlotCounter(
    'tenure_duplicate_transactions_other_customer_total',
    'Webhook events answered duplicate because another customer holds their transaction (type, store, transaction id); each is logged at warn.',
    ['environment'],
    [OCCURRENCE_ENVIRONMENTS],
  );
  const offers = new SlotCounter(
    'tenure_offers_total',
    'One-click offers by action, outcome (granted, failed, skipped_cooldown, skipped_cap, error; revoked, revoke_failed) and trigger (manual, auto).',
    ['action', 'outcome', 'trigger'],
    [ACTIONS, OFFER_OUTCOMES, OFFER_TRIGGERS],
  );
  const outcomeWidth = WEBHOOK_OUTCOMES.length;
  const classWidth = STATUS_CLASSES.length;
  const dispatchWidth = DISPATCH_OUTCOMES.length;

  let registry: Registry | undefined;
  const build = (): Registry => {
    const r = new Registry();
    collectDefaultMetrics({ register: r });
    for (const metric of [webhooks, requests, dispatches, storeOperations, occurrencesElsewhere, offers]) r.registerMetric(asPromMetric(metric));
    registerSubscriberGauges(r, source);
    return r;
  };

  return {
    webhooks,
    requests,
    dispatches,
    storeOperations,
    occurrencesElsewhere,
    offers,
    webhookReceived(type, outcome) {
      webhooks.add(webhookTypeIndex(type) * outcomeWidth + webhookOutcomeIndex(outcome));
    },
    httpRequest(route, status, seconds) {
      requests.observe(route * classWidth + statusClassIndex(status), seconds);
    },
    dispatched(channel, outcome) {
      dispatches.add(CHANNELS.indexOf(channel) * dispatchWidth + DISPATCH_OUTCOMES.indexOf(outcome));
    },
    storeOperation(operation, seconds) {
      storeOperations.observe(operation === 'apply' ? 0 : 1, seconds);
    },
    occurrenceElsewhere(environment) {
      occurrencesElsewhere.add(environment === 'production' ? 0 : 1);
    },
    offered(action, outcome, trigger) {
      offers.add((ACTIONS.indexOf(action) * OFFER_OUTCOMES.length + OFFER_OUTCOMES.indexOf(outcome)) * OFFER_TRIGGERS.length + (trigger === 'manual' ? 0 : 1));
    },
    registry: () => (registry ??= build()),
    async scrape() {
      const r = (registry ??= build());
      return { contentType: r.contentType, text: await r.metrics() };
    },
  };
}

/**
 * Subscribers per state and per band, and their monthly value: each is the total of one at-risk
 * query with `min_score: 0` and a page of one, which every store answers from the per-(state,
 * score) sums it keeps with the rows (no scan of the subscribers), after re-scoring the rows due.
 */
function registerSubscriberGauges(registry: Registry, source: SubscriberSource): void {
  const totalsBy = async <V extends string>(filter: 'state' | 'band', values: readonly V[]) => {
    const ctx = source.context();
    const totalOf = async (value: V) => {
      const query = filter === 'state' ? { state: value as SubscriberState } : { band: value as RiskBand };
      return (await source.store.atRisk({ ...query, min_score: 0, limit: 1 }, ctx)).total;
    };
    return Promise.all(values.map(async (value) => ({ value, total: await totalOf(value) })));
  };
  new Gauge({
    name: 'tenure_subscribers',
    help: 'Subscribers (production) by state, read from the store at scrape time.',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      for (const { value, total } of await totalsBy('state', SUBSCRIBER_STATES)) this.set({ state: value }, total.subscribers);
    },
  });
  // One query per band serves both band gauges: the registry collects metrics concurrently, so they
  // share the scrape's promise rather than one setting the other's value (which could be read first).
  let bands: ReturnType<typeof totalsBy> | undefined;
  const bandTotals = () => (bands ??= totalsBy('band', RISK_BANDS).finally(() => (bands = undefined)));
  new Gauge({
    name: 'tenure_subscribers_by_band',
    help: 'Subscribers (production) by risk band at the service clock, read from the store at scrape time.',
    labelNames: ['band'],
    registers: [registry],
    async collect() {
      for (const { value, total } of await bandTotals()) this.set({ band: value }, total.subscribers);
    },
  });
  new Gauge({
    name: 'tenure_monthly_value_usd_by_band',
    help: 'Summed monthly value (USD) of the subscribers (production) in each risk band: the revenue at risk in high and critical.',
    labelNames: ['band'],
    registers: [registry],
    async collect() {
      for (const { value, total } of await bandTotals()) this.set({ band: value }, total.monthly_value_usd);
    },
  });
}
