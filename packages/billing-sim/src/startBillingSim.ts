/**
 * Starts the simulator's HTTP server and stops it gracefully (the shared HTTP edge's shutdown and
 * `clientError` answers). Used by the CLI and examples.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, EDGE_SERVER_OPTIONS, installParserErrorHandlers, shutdownServer } from '@tenure/http-edge';
import { createRequestHandler } from './http/handleRequest.js';
import { edgeErrorResponse, type SimRequest } from './http/httpTypes.js';
import { toNodeListener } from './http/nodeListener.js';
import type { RateLimitSettings } from './http/rateLimit/rateLimits.js';
import { createBillingSimulator, type BillingSimulator, type BillingSimulatorOptions } from './simulator/createSimulator.js';

export interface StartOptions extends BillingSimulatorOptions {
  port?: number;
  host?: string;
  /** Required Bearer key of /v2, /sim and /metrics; open (with a warning) when unset. */
  apiKey?: string | null;
  /** `GET /metrics` without the API key even when one is set (METRICS_PUBLIC). Default false. */
  metricsPublic?: boolean;
  log?: (line: string) => void;
  /**
   * The bound of `stop()`: in-flight requests may finish within it, then connections still open
   * are cut (BILLING_SIM_SHUTDOWN_TIMEOUT_MS, `--shutdown-timeout-ms`). Default 10 000.
   */
  shutdownTimeoutMs?: number;
  /** API v2 rate limits: on at the documented limits unless `false` or adjusted (`--rate-limits`). */
  rateLimits?: RateLimitSettings | false;
  /**
   * The virtual clock follows the wall clock: never behind it, it catches up before every request
   * and every `tickMs` (default 1000), so renewals, trial ends and Test Store renewals happen in real
   * time, as the SDKs (which read the device's clock) expect; advancing still jumps ahead, and the
   * wall clock catches up from there (`--follow-wall-clock`). Default false: the clock moves only when advanced.
   */
  followWallClock?: boolean | { tickMs: number };
}

export interface RunningBillingSim {
  sim: BillingSimulator;
  server: Server;
  url: string;
  /** Stops accepting, lets in-flight requests finish (within the bound), closes idle keep-alive sockets, then cancels pending webhook timers. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Given options, builds a simulator, serves it on `host:port` (default 127.0.0.1:4000) and returns
 * it with its URL and a graceful `stop()`. Requests Node cannot parse (bad request line, headers
 * too large) are answered with the billing service's error envelope.
 *
 * @example
 * const running = await startBillingSim({ port: 0, seed: 'demo' });
 * await running.stop();
 */
export async function startBillingSim(options: StartOptions = {}): Promise<RunningBillingSim> {
  const log = options.log ?? ((line: string) => console.error(line));
  const sim = createBillingSimulator(options);
  if (!options.apiKey) log('tenure-billing-sim: BILLING_SIM_API_KEY is not set; the API is open to anyone who can reach it');
  const handler = createRequestHandler(sim, { apiKey: options.apiKey ?? null, metricsPublic: options.metricsPublic ?? false, ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }) });
  const follow = options.followWallClock ? followWallClock(sim, options.followWallClock === true ? 1000 : options.followWallClock.tickMs) : null;
  // Served through the framework-free node:http binding; `createBillingSimApp` is the Express one.
  const server = createServer(EDGE_SERVER_OPTIONS, toNodeListener(follow === null ? handler : Object.assign((req: SimRequest) => (follow.catchUp(), handler(req)), { metricsEndpoint: handler.metricsEndpoint })));
  installParserErrorHandlers(server, (problem) => edgeErrorResponse(problem).body);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4000, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  let stopping: Promise<void> | undefined;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    sim,
    server,
    url: `http://${host}:${port}`,
    stop: () =>
      (stopping ??= shutdownServer(server, {
        timeoutMs: options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
        drain: async () => {
          follow?.stop();
          sim.close();
        },
      }).then(() => undefined)),
  };
}

/**
 * Moves the simulator's clock up to the wall clock now (never back): at once, every `tickMs` until
 * stopped, and before a request when it is 100 ms or more behind (an advance derives the due jobs
 * from every customer, so it is not paid for every request of a busy client).
 */
function followWallClock(sim: BillingSimulator, tickMs: number): { catchUp(): void; stop(): void } {
  const advance = (lag: number) => {
    const wall = Date.now();
    if (wall - sim.now() >= lag) sim.advanceTo(wall);
  };
  const catchUp = () => advance(100);
  advance(1);
  const timer = setInterval(() => advance(1), tickMs);
  timer.unref();
  return { catchUp, stop: () => clearInterval(timer) };
}
