/**
 * The standalone service's request listener: `POST /webhook` is served straight on node:http by the
 * framework-free handler (no Express routing or middleware on the hot path); every other request
 * goes to the Express app. Both share one runtime, so they see the same store and dispatcher.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { bindRetentionApp } from '../app/createRetentionApp.js';
import { resolveRuntime, type RetentionOptions, type RetentionRuntime } from '../app/retentionOptions.js';
import { apiError, type ApiErrorBody } from '../http/apiError.js';
import { requestIdFrom } from '../http/requestId.js';
import { ACK_JSON, handleWebhook, type WebhookResult } from './handleWebhook.js';
import { readBody, WEBHOOK_BODY_LIMIT } from './readBody.js';

/** A node:http request listener with the Express app behind it and a way to shut down cleanly. */
export interface RetentionRequestListener extends RequestListener {
  /** The Express app that serves every request but `POST /webhook`. */
  readonly app: Express;
  /** Internal runtime (store, clock, dispatcher), shared by both paths. */
  readonly runtime: RetentionRuntime;
  /** Waits for in-flight dispatches, then closes notifiers and the store. */
  close(): Promise<void>;
}

const isWebhookPost = (req: IncomingMessage): boolean =>
  req.method === 'POST' &&
  (req.url === '/webhook' || req.url?.startsWith('/webhook?') === true) &&
  // Compressed bodies go through Express, whose body parser inflates them.
  (req.headers['content-encoding'] === undefined || req.headers['content-encoding'] === 'identity');

function write(res: ServerResponse, requestId: string, result: WebhookResult, close = false): void {
  const json = ACK_JSON.get(result.body) ?? JSON.stringify(result.body);
  // A flat header list skips writeHead's per-key object walk on the hot path.
  const headers = ['content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(json)), 'x-request-id', requestId];
  if (close) headers.push('connection', 'close');
  res.writeHead(result.status, headers);
  res.end(json);
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

  async function serveWebhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    const start = performance.now();
    let result: WebhookResult;
    try {
      const body = await readBody(req, WEBHOOK_BODY_LIMIT);
      if (!body.ok && body.reason === 'aborted') return void res.destroy();
      result = body.ok ? await handleWebhook(body.text, req.headers, runtime) : apiError('payload_too_large', 'The request body is larger than 1 MB', 'body');
      write(res, requestId, result, !body.ok);
    } catch (error) {
      result = apiError('internal_error', 'Internal error');
      log.error({ req_id: requestId, err: String(error) }, 'webhook failed');
      if (!res.headersSent) write(res, requestId, result);
    }
    // 2xx at debug: the hot path logs (and allocates a log line) only when it needs attention.
    const rejected = result.status >= 400;
    if (!rejected && !log.isLevelEnabled('debug')) return;
    const line = { req_id: requestId, method: 'POST', path: '/webhook', status: result.status, ms: Math.round((performance.now() - start) * 10) / 10 };
    if (rejected) log.warn({ ...line, error: (result.body as ApiErrorBody).error }, 'webhook rejected');
    else log.debug(line, 'request');
  }

  const listener = ((req: IncomingMessage, res: ServerResponse) => {
    if (isWebhookPost(req)) void serveWebhook(req, res);
    else app(req, res);
  }) as RetentionRequestListener;
  return Object.assign(listener, { app, runtime, close: () => runtime.close() });
}
