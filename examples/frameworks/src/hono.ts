/**
 * tenure inside a Hono app: every request under `/tenure` goes to the retention service's fetch
 * handler (its webhook, `/health`, `/ready`); the rest of the app is yours. The same code runs on
 * Node (`@hono/node-server`), Bun, Deno and edge runtimes.
 */
import { Hono } from 'hono';
import { createRetentionFetchHandler, type RetentionFetchOptions } from '@tenure/server';

/**
 * Given the retention options, returns a Hono app with tenure mounted at `/tenure` (RevenueCat's
 * webhook URL is then `https://your.host/tenure/webhook`) and the handler, to close on shutdown.
 *
 * @example
 * const { app } = createHonoApp({ webhookAuthKey: process.env.BILLING_WEBHOOK_AUTH_KEY });
 * export default app; // Bun and Deno serve a default export's fetch
 */
export function createHonoApp(options: RetentionFetchOptions = {}) {
  const tenure = createRetentionFetchHandler({ ...options, basePath: '/tenure' });
  const app = new Hono();
  app.get('/', (c) => c.text('your app'));
  app.all('/tenure/*', (c) => tenure(c.req.raw));
  return { app, tenure };
}
