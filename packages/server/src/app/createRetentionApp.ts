/**
 * The Express 5 adapter: binds the framework-free handlers to routes. Mount it in an existing app
 * (`app.use('/retention', createRetentionApp(options))`) or serve it with `startRetentionServer`.
 */
import express, { type Express } from 'express';
import { handleParsedWebhook, handleWebhook } from '../webhook/handleWebhook.js';
import { apiError } from '../http/apiError.js';
import { requestLogger } from '../http/requestLogger.js';
import { createApiRouter } from './apiRouter.js';
import { dashboardStateOf } from '../dashboard/dashboardState.js';
import { createDashboardRouter } from '../dashboard/serveDashboard.js';
import { metricsHandler, requestTimer } from '../metrics/metricsRoute.js';
import { errorHandler, notFound } from './errorHandler.js';
import { buildOpenApiDocument } from './openapi.js';
import { resolveRuntime, type RetentionOptions, type RetentionRuntime } from './retentionOptions.js';

const runtimes = new WeakMap<Express, RetentionRuntime>();

/**
 * Given the options, returns an Express 5 app serving the retention service's routes (webhook,
 * `/api/*`, health, OpenAPI, the dashboard page at `/`). Never listens itself.
 *
 * @example
 * const app = express();
 * app.use('/retention', createRetentionApp({ webhookAuthKey: process.env.BILLING_WEBHOOK_AUTH_KEY }));
 * app.listen(3000);
 */
export function createRetentionApp(options: RetentionOptions = {}): Express {
  return bindRetentionApp(resolveRuntime(options));
}

/** Internal: the app over an existing runtime (shared with the node:http fast path). */
export function bindRetentionApp(rt: RetentionRuntime): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestTimer(rt.metrics));
  app.use(requestLogger(rt.logger));

  const dashboard = dashboardStateOf(rt);
  app.use(createDashboardRouter()); // the dashboard page at `/` and its assets

  app.get('/health', (_req, res) => void res.json({ status: 'ok', service: rt.serviceName }));
  // Readiness for a load balancer: 200 while the stores answer, 503 with the reason when they do not or the service shuts down.
  app.get('/ready', async (_req, res) => {
    const reason = await rt.ready();
    res.status(reason === null ? 200 : 503).json(reason === null ? { status: 'ready', service: rt.serviceName } : { status: 'not_ready', service: rt.serviceName, reason });
  });
  let openapi: Record<string, unknown> | undefined;
  app.get('/openapi.json', (_req, res) => void res.json((openapi ??= buildOpenApiDocument(rt.serviceName))));
  app.get('/metrics', metricsHandler(rt.metrics, rt.apiAuth, rt.metricsPublic));

  // Raw bytes, so the handler checks UTF-8 itself (body-parser's text decoding would substitute
  // U+FFFD for invalid bytes and merge two different ids).
  app.post('/webhook', (_req, res, next) => (dashboard.observeWebhook(res), next()), express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const body: unknown = req.body;
    const result =
      body === undefined
        ? await handleWebhook('', req.headers, rt)
        : Buffer.isBuffer(body) || typeof body === 'string' // a host app ran express.text() first
          ? await handleWebhook(body, req.headers, rt)
          : await handleParsedWebhook(body, req.headers, rt); // a host app ran express.json() first
    res.status(result.status).json(result.body);
  });
  app.all('/webhook', (_req, res) => {
    const { status, body } = apiError('method_not_allowed', 'Use POST /webhook');
    res.setHeader('allow', 'POST').status(status).json(body);
  });

  app.use('/api', createApiRouter(rt));
  app.use(notFound);
  app.use(errorHandler(rt.logger));
  runtimes.set(app, rt);
  return app;
}

/**
 * Given an app made by `createRetentionApp`, waits for in-flight alert dispatches and closes its
 * notifiers and store (call it on shutdown of the host app). With `signal`, the wait ends when it
 * aborts: each alert not yet sent is then recorded as failed (`not sent before shutdown`) with its
 * cooldown released, so the next dispatch sends it.
 *
 * @example
 * process.on('SIGTERM', async () => { server.close(); await closeRetentionApp(retention, AbortSignal.timeout(10_000)); });
 */
export async function closeRetentionApp(app: Express, signal?: AbortSignal): Promise<void> {
  const rt = runtimes.get(app);
  if (rt !== undefined) dashboardStateOf(rt).close(); // end the dashboard's live streams
  await rt?.close(signal);
}

/**
 * Given an app made by `createRetentionApp`, sends the webhook deliveries its dispatch log holds
 * unfinished (recorded `pending` or `retrying` when a crash or a shutdown cut them short; with a
 * SQLite or PostgreSQL store they outlive the process) once each, with their stored body and
 * `webhook-id`, and closes unfinished email or chat deliveries as failed, as `tenure serve` does
 * at start. Call it once your server listens; a slow receiver never holds up the start, so do not
 * wait for it before listening. Resolves with how many deliveries were taken up, once each has a
 * final outcome (logged); rejects when the dispatch log cannot be read. Later calls return the
 * first call's promise. Resolves with 0 for an app not made by `createRetentionApp`.
 *
 * @example
 * const retention = createRetentionApp({ store: await openStore({ kind: 'sqlite', path: './data/tenure.db' }) });
 * app.use('/retention', retention);
 * app.listen(3000, () => void resumeRetentionDeliveries(retention).catch(console.error));
 */
export function resumeRetentionDeliveries(app: Express): Promise<number> {
  return runtimes.get(app)?.resumeDeliveries() ?? Promise.resolve(0);
}
