/**
 * Running the service: listen, log one startup line, answer unparsable requests in the error shape,
 * and shut down gracefully on SIGTERM/SIGINT within a bound (stop accepting, let in-flight requests
 * finish, drain pending alerts, close the store), with the shared HTTP edge.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, EDGE_SERVER_OPTIONS, installParserErrorHandlers, onShutdownSignals, shutdownServer } from '@tenure/http-edge';
import type { RetentionOptions } from '../app/retentionOptions.js';
import { edgeError } from '../http/apiError.js';
import { dashboardStateOf } from '../dashboard/dashboardState.js';
import { rescoreOnStart } from '../config/rescoreOnStart.js';
import { storeContext } from '../store/storeContext.js';
import { createRetentionRequestListener, type RetentionRequestListener } from '../webhook/createRetentionRequestListener.js';

export interface StartOptions extends RetentionOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Install SIGTERM/SIGINT handlers: the first signal starts a graceful shutdown and the process
   * exits (0, or 1 if closing failed) when it is done; a second signal ends it at once. Default true.
   */
  handleSignals?: boolean;
  /**
   * The bound of a graceful shutdown, from its start (TENURE_SHUTDOWN_TIMEOUT_MS): connections still
   * open then are cut, and alerts not yet sent are recorded as failed (`not sent before shutdown`)
   * with their cooldowns released, so the next dispatch sends them. Default 10 000.
   */
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
 * unset. Before listening it brings the store's at-risk rows up to date once: all of them, with
 * progress and the count in the log, when they were scored under other rules (`rescoreOnStart`);
 * then those due. So the first query does not pay for it. If that or listening fails, the
 * store is closed and the error rethrown. The CLI and examples call it; library code never does.
 *
 * @example
 * const running = await startRetentionServer({ port: 3000, webhookAuthKey: process.env.BILLING_WEBHOOK_AUTH_KEY });
 * await running.close();
 */
export async function startRetentionServer(options: StartOptions = {}): Promise<RunningRetentionServer> {
  const listener = createRetentionRequestListener(options);
  const { logger, store, notifiers } = listener.runtime;
  const dashboard = dashboardStateOf(listener.runtime);
  // The listener counts webhook answers for the dashboard itself (fast path, Express route, rejected heads).
  const server = createServer({ ...EDGE_SERVER_OPTIONS, keepAliveTimeout: 5_000 }, listener);
  installParserErrorHandlers(
    server,
    (problem) => edgeError(problem).body,
    (problem, error) => logger.warn({ status: problem.status, err: (error as { code?: string }).code ?? error.message }, 'request rejected by the HTTP parser'),
  );
  try {
    await rescoreOnStart(listener.runtime); // rows scored under other rules: all rescored before any request
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
  // Signal handlers first: a supervisor may send SIGTERM as soon as it reads the startup line, and a
  // signal without a handler ends the process at once.
  const timeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let offSignals = () => {};
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.info({ timeout_ms: timeoutMs }, 'shutting down: no new connections, finishing in-flight requests and pending alerts');
      offSignals();
      dashboard.close(); // open dashboards' live streams would otherwise hold connections to the bound
      const report = await shutdownServer(server, { timeoutMs, drain: (signal) => listener.close(signal) });
      if (report.connectionsCut) logger.warn({ timeout_ms: timeoutMs }, 'connections still open at the shutdown bound were cut');
      logger.info({ ...report }, 'stopped');
      logger.flush?.();
    })());
  if (options.handleSignals ?? true) {
    offSignals = onShutdownSignals((signal) => {
      logger.info({ signal }, 'signal received');
      // Closing the store after the bound should take milliseconds; never hang past a grace period.
      setTimeout(() => process.exit(1), timeoutMs + 5_000).unref();
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: String(error) }, 'shutdown failed');
          logger.flush?.();
          process.exit(1);
        },
      );
    });
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  const channels: Record<string, string> = Object.fromEntries(['email', 'chat'].map((c) => [c, notifiers.find((n) => n.channel === c)?.description ?? 'off']));
  const hooks = listener.runtime.alertWebhooks;
  channels['webhook'] = hooks.length === 0 ? 'off' : hooks.map((h) => `${h.name} (${h.origin})`).join(', ');
  // `describe.store` (the CLI's redacted spec) names the store better than its kind when given.
  const { source, hash } = listener.runtime.serviceConfig;
  const offers = listener.runtime.offers?.offers.map((o) => `${o.action}: ${o.entitlement} for ${o.duration}${o.auto ? `, auto ≤ ${o.daily_cap}/day` : ''}`);
  const fields: Record<string, unknown> = {
    url,
    store: store.kind,
    notifiers: channels,
    config: { source, hash, calibrated: listener.runtime.calibration !== null },
    ...(offers === undefined ? {} : { offers }),
    ...options.describe,
  };
  logger.info(fields, `tenure listening on ${url} (store: ${String(fields['store'])}; email: ${channels['email']}; chat: ${channels['chat']}; webhook: ${channels['webhook']}; dashboard: ${url}/)`);
  if (listener.runtime.webhookAuth.disabled) {
    logger.warn('BILLING_WEBHOOK_AUTH_KEY is not set: POST /webhook accepts ANY caller (development mode only)');
  }
  if (listener.runtime.apiAuth.disabled) {
    logger.warn('TENURE_API_KEY is not set: /api/* is open to ANY caller (development mode only)');
  }

  // Webhook deliveries a crash or a shutdown left unfinished are sent again, once each, now that
  // the service listens (a slow receiver never delays the start).
  listener.resumeDeliveries().catch((error: unknown) => logger.error({ err: String(error) }, 'taking up unfinished deliveries failed'));

  return { server, url, listener, close };
}
