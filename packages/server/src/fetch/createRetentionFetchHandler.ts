/**
 * tenure in any web framework: the retention service's webhook (and its liveness and readiness
 * probes) as a web-standard `(request: Request) => Promise<Response>`, for Next.js route handlers,
 * Hono, Bun, Deno, Cloudflare-style runtimes. The same framework-free handler as the node:http and
 * Express bindings answers, under the same edge rules: 1 MB body limit, strict UTF-8, constant-time
 * authorization, the same JSON answers and error shape (docs/frameworks.md).
 */
import { edgeProblem } from '@tenure/http-edge';
import { resolveRuntime, type RetentionOptions, type RetentionRuntime } from '../app/retentionOptions.js';
import { dashboardStateOf } from '../dashboard/dashboardState.js';
import { apiError, edgeError, type HandlerResult } from '../http/apiError.js';
import { requestIdFrom } from '../http/requestId.js';
import { routeIndexOf } from '../metrics/routeLabel.js';
import { ACK_JSON, handleWebhook } from '../webhook/handleWebhook.js';
import { createFetchApi } from './fetchApi.js';
import { readRequestBody } from './readRequestBody.js';

/** Options: the retention service's, and where the handler is mounted. */
export interface RetentionFetchOptions extends RetentionOptions {
  /**
   * The path prefix the framework mounts the handler under (`/api/tenure` for a Next.js route at
   * `app/api/tenure/[...path]/route.ts`): stripped before routing, so `/api/tenure/webhook` is the
   * webhook. Default: none.
   */
  basePath?: string;
  /**
   * Also serve the JSON API under `/api` (the routes `createRetentionApp` serves there, behind the
   * same bearer key, `TENURE_API_KEY` or `apiKey`), except the dashboard's live stream. Default:
   * false, only the webhook and the probes.
   */
  api?: boolean;
}

/** A fetch handler with the runtime behind it and a way to shut down cleanly. */
export interface RetentionFetchHandler {
  (request: Request): Promise<Response>;
  /** Internal runtime (store, clock, dispatcher). */
  readonly runtime: RetentionRuntime;
  /** Waits for in-flight dispatches (until `signal` aborts), then closes notifiers and the store. */
  close(signal?: AbortSignal): Promise<void>;
  /**
   * Sends the webhook deliveries a crash or a shutdown left unfinished in a durable store's dispatch
   * log, once each (see `resumeRetentionDeliveries`). Resolves with how many were taken up, once
   * each has a final outcome; later calls return the same promise.
   */
  resumeDeliveries(): Promise<number>;
}

const WEBHOOK_ROUTE = routeIndexOf('/webhook');

/** Given a status, a JSON text and the request id, returns the response. */
const json = (status: number, text: string, requestId: string, extra: Record<string, string> = {}): Response =>
  new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...extra } });

const answer = (result: HandlerResult, requestId: string, extra?: Record<string, string>): Response =>
  json(result.status, ACK_JSON.get(result.body) ?? JSON.stringify(result.body), requestId, extra);

/**
 * Given the options, returns a fetch handler serving `POST /webhook` (RevenueCat's webhooks: auth,
 * parse, store, answer; auto-dispatch after the answer), `GET /health`, `GET /ready` and, with
 * `api: true`, the JSON API under `/api`; every other request is a 404 (`/webhook` with another
 * method: 405) in the service's error shape.
 * Library code: it never listens.
 *
 * @example
 * // app/api/tenure/[...path]/route.ts (Next.js App Router)
 * const tenure = createRetentionFetchHandler({ basePath: '/api/tenure', webhookAuthKey: process.env.BILLING_WEBHOOK_AUTH_KEY });
 * export const POST = tenure;
 * export const GET = tenure;
 */
export function createRetentionFetchHandler(options: RetentionFetchOptions = {}): RetentionFetchHandler {
  const { basePath = '', api = false, ...retention } = options;
  const prefix = basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
  const runtime = resolveRuntime(retention);
  const serveApi = api ? createFetchApi(runtime) : undefined;
  const log = runtime.logger;
  const metrics = runtime.metrics;
  // The webhooks of the last hour, as the dashboard summary counts them in every binding.
  const tally = dashboardStateOf(runtime).tally;

  async function webhook(request: Request, requestId: string): Promise<Response> {
    const start = performance.now();
    let result: HandlerResult;
    try {
      const body = await readRequestBody(request).catch(() => null);
      if (body === null) result = apiError('invalid_request', 'The body does not inflate as its content-encoding says', 'body');
      else if (!body.ok && body.code === 'unsupported_encoding') result = apiError('unsupported_media_type', 'Unsupported body encoding', 'body');
      else if (!body.ok) {
        metrics.webhookReceived(undefined, 'rejected_too_large');
        result = edgeError(edgeProblem('payload_too_large', 'The request body is larger than 1 MB'));
      } else result = await handleWebhook(body.bytes, { authorization: request.headers.get('authorization') ?? undefined }, runtime);
    } catch (error) {
      result = apiError('internal_error', 'Internal error');
      log.error({ req_id: requestId, err: String(error) }, 'webhook failed');
    }
    metrics.httpRequest(WEBHOOK_ROUTE, result.status, (performance.now() - start) / 1000);
    tally.record(result.status);
    if (result.status >= 400) log.warn({ req_id: requestId, method: 'POST', path: '/webhook', status: result.status }, 'webhook rejected');
    return answer(result, requestId);
  }

  const handler = (async (request: Request): Promise<Response> => {
    const requestId = requestIdFrom(request.headers.get('x-request-id') ?? undefined);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return answer(apiError('invalid_request', 'The request URL is not a URL'), requestId);
    }
    let path = url.pathname;
    if (prefix !== '') {
      if (path !== prefix && !path.startsWith(`${prefix}/`)) return answer(apiError('not_found', `No route for ${request.method} ${path}`), requestId);
      path = path.slice(prefix.length) || '/';
    }
    if (path === '/webhook') {
      if (request.method === 'POST') return webhook(request, requestId);
      return answer(apiError('method_not_allowed', 'Use POST /webhook'), requestId, { allow: 'POST' });
    }
    if (path === '/health' && request.method === 'GET') return json(200, JSON.stringify({ status: 'ok', service: runtime.serviceName }), requestId);
    if (path === '/ready' && request.method === 'GET') {
      const reason = await runtime.ready();
      return json(reason === null ? 200 : 503, JSON.stringify(reason === null ? { status: 'ready', service: runtime.serviceName } : { status: 'not_ready', service: runtime.serviceName, reason }), requestId);
    }
    // Mounted as Express mounts `/api`: without regard to case.
    const lower = path.toLowerCase();
    if (serveApi !== undefined && (lower === '/api' || lower.startsWith('/api/'))) {
      const start = performance.now();
      let reply: Awaited<ReturnType<typeof serveApi>>;
      try {
        reply = await serveApi(request, url, path.slice(4) || '/');
      } catch (error) {
        log.error({ req_id: requestId, err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) }, 'unhandled error');
        reply = { result: apiError('internal_error', 'Internal error') };
      }
      metrics.httpRequest(routeIndexOf(path), reply.result.status, (performance.now() - start) / 1000);
      const response = json(reply.result.status, JSON.stringify(reply.result.body), requestId, reply.headers);
      return request.method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
    }
    return answer(apiError('not_found', `No route for ${request.method} ${path}`), requestId);
  }) as RetentionFetchHandler;
  return Object.assign(handler, { runtime, close: (signal?: AbortSignal) => runtime.close(signal), resumeDeliveries: () => runtime.resumeDeliveries() });
}
