/**
 * A Next.js App Router route handler serving tenure at `/api/tenure/*` (RevenueCat's webhook URL:
 * `https://your.app/api/tenure/webhook`). The store opens once per server process, on the first
 * request: `DATABASE_URL` (`sqlite:/var/lib/tenure.db` or a PostgreSQL URL) makes it durable;
 * without it, an in-memory store. Node.js runtime (a store needs it), never statically rendered.
 */
import { createRetentionFetchHandler, openStore, parseStoreSpec, type RetentionFetchHandler } from '@tenure/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

let tenure: Promise<RetentionFetchHandler> | undefined;

/** The handler, created on first use (one per process). */
function handler(): Promise<RetentionFetchHandler> {
  tenure ??= (async () => {
    const spec = parseStoreSpec(process.env['DATABASE_URL'] ?? 'memory');
    if (!spec.ok) throw new Error(`DATABASE_URL: ${spec.error}`);
    const store = await openStore(spec.spec, { applicationName: 'tenure (next)' });
    return createRetentionFetchHandler({ basePath: '/api/tenure', store, webhookAuthKey: process.env['BILLING_WEBHOOK_AUTH_KEY'] });
  })();
  return tenure;
}

export async function POST(request: Request): Promise<Response> {
  return (await handler())(request);
}

export async function GET(request: Request): Promise<Response> {
  return (await handler())(request);
}
