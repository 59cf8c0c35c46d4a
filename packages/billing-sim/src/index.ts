/**
 * @tenure/billing-sim: a local billing service for development and tests. RevenueCat API v2
 * virtual currencies, customers and purchases on a virtual clock, credit grants from @tenure/core's
 * rules, and real webhook deliveries with retries and fault injection. Exports are listed by hand.
 */

// --- Simulator ---
export { createBillingSimulator, DEFAULT_START } from './simulator/createSimulator.js';
export type { BillingSimulator, BillingSimulatorOptions } from './simulator/createSimulator.js';
export type { Job, JobKind } from './machine/clock.js';
export type { ProductInput } from './machine/products.js';
export type { Product } from './machine/world.js';
export type { WebhookBody, VcAdjustment, SimEvent, VirtualCurrencyTransactionEvent } from './machine/webhookEvents.js';

// --- The machine ---
export { transition } from './machine/transition.js';
export type { TransitionOutcome, TransitionOptions } from './machine/transition.js';
export type { EventLog } from './machine/eventLog.js';
export type { SimCommand, SimCommandType, CommandOf, CommandValues } from './machine/commands.js';
export type { CreditChange } from './machine/context.js';
export { createWorld } from './machine/createWorld.js';
export { IDEMPOTENCY_TTL_MS } from './machine/idempotency.js';
export type {
  World,
  EventSettings,
  CustomerState,
  SubscriptionState,
  SubscriptionStatus,
  OneTimePurchase,
  CurrencyRecord,
  IdempotencyRecord,
  ProjectState,
  OwnerRef,
} from './machine/world.js';
export { VIRTUAL_CLOCK_END } from './machine/clockBounds.js';
export { lookupKey } from './machine/idempotency.js';
export { customerIn, customersOf, subscriptionIn } from './machine/queries.js';
export { pendingJobs } from './machine/clock.js';
export { pmapGet, pmapForEach, pmapValues } from './machine/persistentMap.js';
export type { PMap } from './machine/persistentMap.js';
export { pvecGet, pvecForEach } from './machine/persistentVector.js';
export type { PVec } from './machine/persistentVector.js';
export { storedCustomer, forEachCustomer } from './machine/worldCustomers.js';
export { STATUS_BY_ERROR_TYPE, toErrorResponse } from './machine/apiError.js';
export type { ApiError, ApiErrorType, ErrorEnvelope, Result } from './machine/apiError.js';

// --- HTTP ---
export { createRequestHandler, ROUTES } from './http/handleRequest.js';
export type { HandlerOptions } from './http/handleRequest.js';
export { RATE_LIMITS, createRateLimiter } from './http/rateLimit/rateLimits.js';
export type { RateDomain, RateLimitSettings, RateLimiter, RateDecision } from './http/rateLimit/rateLimits.js';
export { webhookIntegrationsOf, integrationTargets } from './machine/integrations.js';
export type { IntegrationTarget } from './machine/integrations.js';
export { WEBHOOK_EVENT_TYPES } from './machine/world.js';
export type { WebhookIntegrationRecord, WebhookEventType } from './machine/world.js';
export { projectExists, projectIds } from './machine/projects.js';
export { overviewMetrics } from './v2/overviewMetrics.js';
export type { OverviewMetric } from './v2/overviewMetrics.js';
export { offeringsOf, offeringFor } from './machine/offerings.js';
export type { OfferingRecord, PackageRecord } from './machine/world.js';
export type { SimRequest, SimResponse } from './http/httpTypes.js';
export { createBillingSimApp } from './http/createBillingSimApp.js';
export { toNodeListener } from './http/nodeListener.js';
export { buildOpenApi } from './http/openapi.js';
export { startBillingSim } from './startBillingSim.js';
export type { StartOptions, RunningBillingSim } from './startBillingSim.js';

// --- Webhook delivery ---
export { realScheduler, createManualScheduler } from './delivery/scheduler.js';
export type { Scheduler, ManualScheduler } from './delivery/scheduler.js';
export { fetchTransport, httpTransport } from './delivery/transport.js';
export type { Transport, TransportRequest, TransportResult } from './delivery/transport.js';
export { REAL_RETRY_SCHEDULE_MS, FAST_RETRY_SCHEDULE_MS, DEFAULT_CONCURRENCY, webhookConfigSchema, faultsSchema } from './delivery/deliveryConfig.js';
export type { WebhookConfig, WebhookConfigInput, WebhookEnvironment, Faults } from './delivery/deliveryConfig.js';
export { acceptsEvent, configuredTargets } from './delivery/targets.js';
export type { DeliveryTarget } from './delivery/targets.js';
export type { DeliveryRecord, DeliveryAttempt, DeliveryState, AttemptKind } from './delivery/createOutbox.js';

// --- Data export (RevenueCat's scheduled export, version 5) ---
export { EXPORT_V5_COLUMNS } from './export/exportColumns.js';
export type { ExportColumn } from './export/exportColumns.js';
export { exportRows, exportTime } from './export/exportRows.js';
export { exportCsvHeader, exportCsvLine, exportCsvLines } from './export/writeExportCsv.js';

// --- Populations with a known truth ---
export {
  generatePopulation,
  populationWindow,
  populationCustomerId,
  DEFAULT_POPULATION_START,
  MAX_POPULATION_CUSTOMERS,
  MAX_POPULATION_MONTHS,
} from './population/generatePopulation.js';
export type { PopulationOptions, GeneratedCustomer } from './population/generatePopulation.js';
export { DEFAULT_POPULATION_MODEL, populationProducts } from './population/populationModel.js';
export type { PopulationModel, PopulationPlan, PopulationStore } from './population/populationModel.js';
export type { CustomerTruth } from './population/customerTruth.js';
export type { Ending, EndReason } from './population/customerLifecycle.js';
export { activityLine, activityText, exportLines, exportPeriods, recordText, truthLine, webhookLines } from './population/populationLines.js';
export { populationMain } from './population/populationMain.js';

// --- Scenarios ---
export { runScenario, subsetMismatch } from './scenario/runScenario.js';
export type { ScenarioRun, StepResult } from './scenario/runScenario.js';
export { scenarioSchema } from './scenario/scenarioSchema.js';
export type { Scenario, ScenarioStep } from './scenario/scenarioSchema.js';

// --- Durations ---
export { parseDuration, addDuration } from '@tenure/core';
export type { Duration } from '@tenure/core';
