/**
 * @tenure/http-edge (internal, bundled into @tenure/server and @tenure/billing-sim): the HTTP edge
 * both services share. Body reading with a limit, strict UTF-8 and JSON checks, the edge's problems
 * and the formatter each service gives them its envelope with, validation issues to fields,
 * constant-time secret comparison, a request-target parser that never throws, `clientError`
 * answers, graceful shutdown, the setting a failed listen blames, the static pages both serve from memory, and
 * Prometheus counters and histograms over fixed label sets that count in typed arrays. Every export is listed here by hand.
 */

// --- Bodies ---
export { DEFAULT_BODY_LIMIT, readBytes, readText } from './body/readBody.js';
export type { ReadBytesResult, ReadTextResult } from './body/readBody.js';
export { decodeUtf8, parseJsonText } from './body/decodeBody.js';
export type { DecodedText, ParsedJson } from './body/decodeBody.js';

// --- Errors ---
export { EDGE_STATUS, edgeProblem } from './errors/edgeProblem.js';
export type { EdgeProblem, EdgeProblemCode, ErrorFormatter } from './errors/edgeProblem.js';
export { fieldOf, issuesToFields } from './errors/issueFields.js';
export type { FieldProblem, IssueLike } from './errors/issueFields.js';

// --- Requests and auth ---
export { parseRequestTarget, flattenHeaders, headerValue } from './request/requestTarget.js';
export type { ParsedTarget, RequestTarget } from './request/requestTarget.js';
export { EDGE_SERVER_OPTIONS, checkRequestHead } from './request/requestHead.js';
export type { CheckedHead } from './request/requestHead.js';
export { constantTimeEqual, createSecretMatcher, createBearerMatcher } from './auth/secretMatcher.js';
export type { SecretMatcher } from './auth/secretMatcher.js';

// --- Servers ---
export { sendJson, sendJsonText } from './server/sendJson.js';
export type { HeaderList } from './server/sendJson.js';
export { installParserErrorHandlers, rawErrorResponse } from './server/parserErrors.js';
export { DEFAULT_SHUTDOWN_TIMEOUT_MS, shutdownServer, onShutdownSignals } from './server/shutdown.js';
export type { ShutdownOptions, ShutdownReport } from './server/shutdown.js';
export { listenErrorSetting } from './server/listenError.js';
export type { ListenSetting } from './server/listenError.js';

// --- Metrics ---
export { LabelSlots, labelCombinations } from './metrics/labelSlots.js';
export { SlotCounter, asPromMetric } from './metrics/slotCounter.js';
export type { CollectableMetric, SampleValue } from './metrics/slotCounter.js';
export { LATENCY_BUCKETS, SlotHistogram } from './metrics/slotHistogram.js';

// --- Pages ---
export { PAGE_CSP, createStaticPage, trailingSlashLocation } from './static/staticPage.js';
export type { PageAsset, StaticAnswer, StaticPage } from './static/staticPage.js';
