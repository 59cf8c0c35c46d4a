/**
 * The standalone service's request listener: `POST /webhook` is served straight on node:http by the
 * framework-free handler (no Express routing or middleware on the hot path); every other request
 * goes to the Express app. Both share one runtime, so they see the same store and dispatcher.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { checkRequestHead, edgeProblem, readBytes, sendJsonText } from '@tenure/http-edge';
import type { Express } from 'express';
import { bindRetentionApp } from '../app/createRetentionApp.js';
import { resolveRuntime, type RetentionOptions, type RetentionRuntime } from '../app/retentionOptions.js';
import { apiError, edgeError, type ApiErrorBody } from '../http/apiError.js';
import { requestIdFrom } from '../http/requestId.js';
import { ACK_JSON, handleWebhook, type WebhookResult } from './handleWebhook.js';
import { WEBHOOK_BODY_LIMIT } from './readBody.js';
import { routeIndexOf } from '../metrics/routeLabel.js';
import { dashboardStateOf } from '../dashboard/dashboardState.js';

const WEBHOOK_ROUTE = routeIndexOf('/webhook');

/** A node:http request listener with the Express app behind it and a way to shut down cleanly. */
export interface RetentionRequestListener extends RequestListener {
  /** The Express app that serves every request but `POST /webhook`. */
  readonly app: Express;
  /** Internal runtime (store, clock, dispatcher), shared by both paths. */
  readonly runtime: RetentionRuntime;
  /**
   * Waits for in-flight dispatches (until `signal` aborts: then each alert not yet sent is recorded
   * as failed and its cooldown released), then closes notifiers and the store.
   */
  close(signal?: AbortSignal): Promise<void>;
  /**
   * Sends the webhook deliveries a crash or a shutdown left unfinished in a durable store's dispatch
   * log, once each (see `resumeRetentionDeliveries`); call it once the server listens. Resolves
   * with how many were taken up, once each has a final outcome; later calls return the same promise.
   */
  resumeDeliveries(): Promise<number>;
}

const isWebhookPost = (req: IncomingMessage, path: string): boolean =>
  req.method === 'POST' &&
  path === '/webhook' &&
  // Compressed bodies go through Express, whose body parser inflates them.
  (req.headers['content-encoding'] === undefined || req.headers['content-encoding'] === 'identity');

function write(res: ServerResponse, requestId: string, result: WebhookResult, close = false): void {
  const json = ACK_JSON.get(result.body) ?? JSON.stringify(result.body);
  sendJsonText(res, result.status, json, close ? ['x-request-id', requestId, 'connection', 'close'] : ['x-request-id', requestId]);
}

/**
 * Given the options, returns a node:http request listener serving the whole retention service, with
 * `POST /webhook` on a fast path (1 MB body limit, auth, parse, store, answer; auto-dispatch after
 * the response). Library code: it never listens; pass it to `http.createServer`.
 *
 * @example
 * const listener = createRetentionRequestListener({ webhookAuthKey: 'secret' });
 * http.createServer(listener).listen(3000, '127.0.0.1');
 */
export function createRetentionRequestListener(options: RetentionOptions = {}): RetentionRequestListener {
  const runtime = resolveRuntime(options);
  const app = bindRetentionApp(runtime);
  const log = runtime.logger;
  const metrics = runtime.metrics;
  // The dashboard's count of webhook answers: recorded where each answer is written (a listener on
  // every response's 'finish' cost ~2 % of a webhook's CPU); the Express route counts its own.
  const tally = dashboardStateOf(runtime).tally;

  async function serveWebhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    const start = performance.now();
    let result: WebhookResult;
    try {
      const body = await readBytes(req, WEBHOOK_BODY_LIMIT);
      if (!body.ok && body.code === 'aborted') return void res.destroy();
      if (!body.ok) metrics.webhookReceived(undefined, 'rejected_too_large');
      result = body.ok ? await handleWebhook(body.bytes, req.headers, runtime) : edgeError(edgeProblem('payload_too_large', 'The request body is larger than 1 MB'));
      write(res, requestId, result, !body.ok);
      tally.record(result.status);
    } catch (error) {
      result = apiError('internal_error', 'Internal error');
      log.error({ req_id: requestId, err: String(error) }, 'webhook failed');
      if (!res.headersSent) {
        write(res, requestId, result);
        tally.record(result.status);
      }
    }
    metrics.httpRequest(WEBHOOK_ROUTE, result.status, (performance.now() - start) / 1000);
    // 2xx at debug: the hot path logs (and allocates a log line) only when it needs attention.
    const rejected = result.status >= 400;
    if (!rejected && !log.isLevelEnabled('debug')) return;
    const line = { req_id: requestId, method: 'POST', path: '/webhook', status: result.status, ms: Math.round((performance.now() - start) * 10) / 10 };
    if (rejected) log.warn({ ...line, error: (result.body as ApiErrorBody).error }, 'webhook rejected');
    else log.debug(line, 'request');
  }

  // Every byte of the request head is checked here, inside the boundary: a target `new URL` would
  // choke on (`*`, raw non-ASCII) or a missing Host header is a 400 in the error shape.
  const listener = ((req: IncomingMessage, res: ServerResponse) => {
    const head = checkRequestHead(req);
    if (!head.ok) {
      const result = edgeError(head.problem);
      log.warn({ method: req.method, status: result.status, error: result.body.error }, 'request rejected');
      req.resume();
      if (req.method === 'POST' && (req.url === '/webhook' || req.url?.startsWith('/webhook?') === true)) tally.record(result.status);
      return write(res, requestIdFrom(req.headers['x-request-id']), result);
    }
    if (isWebhookPost(req, head.target.path)) void serveWebhook(req, res);
    else app(req, res);
  }) as RetentionRequestListener;
  return Object.assign(listener, { app, runtime, close: (signal?: AbortSignal) => runtime.close(signal), resumeDeliveries: () => runtime.resumeDeliveries() });
}
