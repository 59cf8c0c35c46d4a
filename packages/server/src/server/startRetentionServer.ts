/**
 * Running the service: listen, log one startup line, and shut down gracefully on SIGTERM/SIGINT
 * (stop accepting, let in-flight requests finish, flush pending alerts, close the store).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RetentionOptions } from '../app/retentionOptions.js';
import { storeContext } from '../store/storeContext.js';
import { createRetentionRequestListener, type RetentionRequestListener } from '../webhook/createRetentionRequestListener.js';

export interface StartOptions extends RetentionOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Install SIGTERM/SIGINT handlers. Default true. */
  handleSignals?: boolean;
  /** Connections still open this long after a shutdown starts are cut. Default 10 s. */
  shutdownTimeoutMs?: number;
  /** Extra fields for the startup line (e.g. the clock mode). */
  describe?: Record<string, unknown>;
}

/** A running service. */
export interface RunningRetentionServer {
  readonly server: Server;
  readonly url: string;
  readonly listener: RetentionRequestListener;
  /** Graceful shutdown; idempotent. */
  close(): Promise<void>;
}

/**
 * Given the options, starts the retention service on node:http (webhook fast path + Express app),
 * resolves once it listens, and logs the URL, store and notifiers; warns loudly when an auth key is
 * unset. Before listening it brings the store's at-risk rows up to date once (all of them after a
 * configuration change), so the first query does not pay for it. If that or listening fails, the
 * store is closed and the error rethrown. The CLI and examples call it; library code never does.
 *
 * @example
 * const running = await startRetentionServer({ port: 3000, webhookAuthKey: process.env.BILLING_WEBHOOK_AUTH_KEY });
 * await running.close();
 */
export async function startRetentionServer(options: StartOptions = {}): Promise<RunningRetentionServer> {
  const listener = createRetentionRequestListener(options);
  const { logger, store, notifiers } = listener.runtime;
  const server = createServer({ keepAliveTimeout: 5_000 }, listener);
  try {
    await store.refreshDue(storeContext(listener.runtime), 1000);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await listener.close().catch(() => {}); // the first error is the one to report
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  const channels = Object.fromEntries(['email', 'chat'].map((c) => [c, notifiers.find((n) => n.channel === c)?.description ?? 'off']));
  // `describe.store` (the CLI's redacted spec) names the store better than its kind when given.
  const fields: Record<string, unknown> = { url, store: store.kind, notifiers: channels, ...options.describe };
  logger.info(fields, `tenure listening on ${url} (store: ${String(fields['store'])}; email: ${channels['email']}; chat: ${channels['chat']})`);
  if (listener.runtime.webhookAuth.disabled) {
    logger.warn('BILLING_WEBHOOK_AUTH_KEY is not set: POST /webhook accepts ANY caller (development mode only)');
  }
  if (listener.runtime.apiAuth.disabled) {
    logger.warn('TENURE_API_KEY is not set: /api/* is open to ANY caller (development mode only)');
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.info('shutting down: no new connections, finishing in-flight requests');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections become idle as their in-flight requests finish: close them as they do.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const timer = setTimeout(() => server.closeAllConnections(), options.shutdownTimeoutMs ?? 10_000);
      timer.unref();
      await closed;
      clearInterval(sweep);
      clearTimeout(timer);
      await listener.close(); // pending alerts, notifiers, store
      logger.info('stopped');
      logger.flush?.();
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    })());
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'signal received');
    void close();
  };
  if (options.handleSignals ?? true) {
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  return { server, url, listener, close };
}
