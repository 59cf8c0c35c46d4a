/** Starts the simulator's HTTP server and stops it gracefully. Used by the CLI and examples. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestHandler } from './http/handleRequest.js';
import { toNodeListener } from './http/nodeListener.js';
import { createBillingSimulator, type BillingSimulator, type BillingSimulatorOptions } from './sim/createSimulator.js';

export interface StartOptions extends BillingSimulatorOptions {
  port?: number;
  host?: string;
  /** Required Bearer key of /v2 and /sim; open (with a warning) when unset. */
  apiKey?: string | null;
  log?: (line: string) => void;
}

export interface RunningBillingSim {
  sim: BillingSimulator;
  server: Server;
  url: string;
  stop(): Promise<void>;
}

/**
 * Given options, builds a simulator, serves it on `host:port` (default 127.0.0.1:4000) and returns
 * it with its URL and a `stop()` that closes the server and cancels pending webhook timers.
 *
 * @example
 * const running = await startBillingSim({ port: 0, seed: 'demo' });
 * await running.stop();
 */
export async function startBillingSim(options: StartOptions = {}): Promise<RunningBillingSim> {
  const log = options.log ?? ((line: string) => console.error(line));
  const sim = createBillingSimulator(options);
  if (!options.apiKey) log('tenure-billing-sim: BILLING_SIM_API_KEY is not set; the API is open to anyone who can reach it');
  // Served through the framework-free node:http binding; `createBillingSimApp` is the Express one.
  const server = createServer(toNodeListener(createRequestHandler(sim, { apiKey: options.apiKey ?? null })));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4000, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    sim,
    server,
    url: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        sim.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
