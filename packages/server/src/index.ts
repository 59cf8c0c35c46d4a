/**
 * @tenure/server: the retention service over @tenure/core. An Express 5 app factory to mount in an
 * existing backend, a node:http request listener with a fast webhook path for the standalone
 * service, the ports (clock, notifier, dispatch log) with in-memory and real implementations, store
 * selection (memory, SQLite, PostgreSQL; drivers loaded only when chosen), and a runner with
 * graceful shutdown. Every export is listed here by hand.
 */

// --- App, listener, server ---
export { createRetentionApp, closeRetentionApp, resumeRetentionDeliveries } from './app/createRetentionApp.js';
export type { RetentionOptions, DispatchOptions } from './app/retentionOptions.js';
export type { OffersOptions } from './offers/offersOptions.js';
export { createRetentionRequestListener } from './webhook/createRetentionRequestListener.js';
export type { RetentionRequestListener } from './webhook/createRetentionRequestListener.js';
export { createRetentionFetchHandler } from './fetch/createRetentionFetchHandler.js';
export type { RetentionFetchHandler, RetentionFetchOptions } from './fetch/createRetentionFetchHandler.js';
export { startRetentionServer } from './server/startRetentionServer.js';
export type { StartOptions, RunningRetentionServer } from './server/startRetentionServer.js';
export { buildOpenApiDocument } from './app/openapi.js';

// --- Framework-free webhook handler ---
export { handleWebhook, handleParsedWebhook } from './webhook/handleWebhook.js';
export type { WebhookDeps, WebhookAck, WebhookResult, WebhookHeaders } from './webhook/handleWebhook.js';
export { WEBHOOK_BODY_LIMIT } from './webhook/readBody.js';

// --- Errors and auth ---
export { ERROR_STATUS, apiError } from './http/apiError.js';
export type { ApiErrorBody, ErrorCode, HandlerResult } from './http/apiError.js';
export { createSecretMatcher, createBearerMatcher } from './http/secretMatcher.js';
export type { SecretMatcher } from './http/secretMatcher.js';

// --- Clock ---
export { wallClock, fixedClock, eventClock, parseClockSpec, clockFromSpec } from './clock/clock.js';
export type { Clock, ClockSpec } from './clock/clock.js';

// --- Store ---
export { createMemorySubscriberStore } from './store/memorySubscriberStore.js';
export type { MemorySubscriberStore, MemoryStoreOptions } from './store/memorySubscriberStore.js';
export { DEFAULT_STORE_SPEC, parseStoreSpec, describeStoreSpec, openStore, sandboxStoreSpec } from './store/openStore.js';
export type { StoreSpec, ParsedStoreSpec, OpenStoreOptions } from './store/openStore.js';

// --- Import of RevenueCat's data export ---
export { openExportReader } from './import/readExport.js';
export type { ExportReader, ExportRecord, UnreadableRecord } from './import/readExport.js';
export { importExport } from './import/importExport.js';
export type { ExportImportReport, ExportImportOptions } from './import/importExport.js';
export type { Rejection } from './cli/storeData/importRecords.js';

// --- Evaluation (what `tenure backtest` and `tenure tune` run beside the core's backtest and tune) ---
export { defaultWindow } from './evaluation/evaluationArgs.js';
export { judgeConfig, judgeHistory, changedWeights } from './evaluation/holdoutFigures.js';
export type { HoldoutFigures, JudgedConfig } from './evaluation/holdoutFigures.js';

// --- Alerts ---
export { NotifyError, isRetryable, createMemoryEmailNotifier, createMemoryChatNotifier } from './notify/notifier.js';
export type { Notifier, EmailNotifier, ChatNotifier, SentMessage } from './notify/notifier.js';
export { createSmtpNotifier } from './notify/smtpNotifier.js';
export type { SmtpNotifierOptions } from './notify/smtpNotifier.js';
export { createSlackNotifier } from './notify/slackNotifier.js';
export type { SlackNotifierOptions } from './notify/slackNotifier.js';
export { createAlertWebhookNotifier, recommendationEvent, webhookMessageId, RECOMMENDATION_DISPATCHED } from './notify/alertWebhookNotifier.js';
export type { AlertWebhookNotifier, AlertWebhookOptions, RecommendationDispatchedEvent, WebhookDelivery } from './notify/alertWebhookNotifier.js';
export { parseWebhookSecret, signWebhook, webhookHeaders } from './notify/webhookSignature.js';
export { createDispatcher } from './dispatch/dispatcher.js';
export type { Dispatcher, DispatcherDeps, DispatchSummary } from './dispatch/dispatcher.js';
export { createMemoryDispatchLog, DISPATCH_OUTCOMES } from './dispatch/dispatchLog.js';
export type { DispatchLog, DispatchRecord, DispatchPage, DispatchOutcome, DispatchTrigger } from './dispatch/dispatchLog.js';
export { createRateLimiter } from './dispatch/rateLimiter.js';
export type { RateLimiter, RateLimiterOptions } from './dispatch/rateLimiter.js';
export { DEFAULT_RETRY_POLICY, backoffDelay } from './dispatch/retryPolicy.js';
export type { RetryPolicy } from './dispatch/retryPolicy.js';

// --- Logging ---
export { createLogger } from './log/logger.js';
export type { Logger } from './log/logger.js';
