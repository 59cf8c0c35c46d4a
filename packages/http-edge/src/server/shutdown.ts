/**
 * Graceful shutdown of a node:http server, one implementation for both services: stop accepting,
 * let in-flight requests finish, close keep-alive sockets as they go idle, then drain the service's
 * own work, everything inside one bound.
 */
import type { Server } from 'node:http';

/** The default bound of a graceful shutdown: 10 s. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export interface ShutdownOptions {
  /**
   * The bound, from the start of the shutdown: connections still open then are cut and `drain`'s
   * signal aborts. Default 10 000.
   */
  timeoutMs?: number;
  /**
   * The service's own work to finish once no request is in flight (e.g. queued alerts). It must
   * resolve soon after `signal` aborts, leaving what is left where a restart finds it.
   */
  drain?: (signal: AbortSignal) => Promise<void>;
}

/** What had to be cut short. */
export interface ShutdownReport {
  /** Connections were still open at the bound and were cut. */
  connectionsCut: boolean;
  /** The drain was still running at the bound and was told to stop. */
  drainAborted: boolean;
}

/**
 * Given a listening server, stops it gracefully within `timeoutMs` and resolves with what was cut
 * short. Idle keep-alive sockets are closed at once and then every 50 ms as in-flight requests
 * finish; at the bound the rest are cut. Then, after one turn of the event loop (so work a finished
 * request scheduled with `setImmediate` has started), `drain` runs with a signal that aborts at the
 * same bound. Never rejects for a failing drain (it is the drain's to report).
 *
 * @example
 * process.once('SIGTERM', () => shutdownServer(server, { timeoutMs: 10_000, drain: (s) => queue.drain(s) }).then(() => process.exit(0)));
 */
export async function shutdownServer(server: Server, options: ShutdownOptions = {}): Promise<ShutdownReport> {
  const controller = new AbortController();
  let httpClosed = false;
  let connectionsCut = false;
  const bound = setTimeout(() => {
    connectionsCut = !httpClosed;
    server.closeAllConnections();
    controller.abort(new Error('shutdown bound reached'));
  }, options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);
  bound.unref();

  const closed = new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
  });
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  sweep.unref();
  try {
    await closed;
  } finally {
    httpClosed = true;
    clearInterval(sweep);
  }
  // Work a finished request scheduled for after its answer (`setImmediate`, e.g. an auto-dispatch)
  // runs before the drain looks at what is pending.
  await new Promise((resolve) => setImmediate(resolve));
  let drainAborted = false;
  if (options.drain !== undefined) {
    await options.drain(controller.signal).catch(() => {});
    drainAborted = controller.signal.aborted;
  }
  clearTimeout(bound);
  return { connectionsCut, drainAborted };
}

/**
 * Given a handler, installs it once for SIGTERM and SIGINT and returns a function that removes it.
 *
 * @example
 * const off = onShutdownSignals((signal) => void stop(signal));
 */
export function onShutdownSignals(handler: (signal: NodeJS.Signals) => void): () => void {
  const once = (signal: NodeJS.Signals) => {
    off();
    handler(signal);
  };
  const off = () => {
    process.off('SIGTERM', once);
    process.off('SIGINT', once);
  };
  process.once('SIGTERM', once);
  process.once('SIGINT', once);
  return off;
}
