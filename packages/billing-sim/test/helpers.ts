/** Test helpers: the app on an ephemeral port, a JSON client, and a local webhook receiver. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBillingSimApp, createBillingSimulator, createRequestHandler, toNodeListener, type BillingSimulator, type BillingSimulatorOptions, type HandlerOptions } from '../src/index.js';

export interface TestApp {
  sim: BillingSimulator;
  url: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** Starts the simulator's app on 127.0.0.1:0. */
export async function startApp(
  options: BillingSimulatorOptions = {},
  handler: HandlerOptions = {},
  binding: 'node' | 'express' = 'node',
): Promise<TestApp> {
  const sim = createBillingSimulator({ seed: 'test', projects: ['proj1'], ...options });
  const listener = binding === 'express' ? createBillingSimApp(sim, handler) : toNodeListener(createRequestHandler(sim, handler));
  const server = createServer(listener);
  const url = await listen(server);
  return {
    sim,
    url,
    async call(method, path, body, headers = {}) {
      // Redirects are answers to check (an invoice file is a 302), not to follow.
      const init: RequestInit = { method, redirect: 'manual', headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers } };
      if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
      const res = await fetch(url + path, init);
      const text = await res.text();
      return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
    },
    async close() {
      sim.close();
      await closeServer(server);
    },
  };
}

export { startWebhookReceiver as startReceiver, type ReceivedWebhook as Received, type WebhookReceiver as Receiver } from '@tenure/testkit';

export const P = '/v2/projects/proj1';

/** Creates the seed's hybrid setup: monthly (expiring 100), annual (1500, trial 20), a 500-credit pack. */
export async function hybridSetup(app: TestApp): Promise<void> {
  const products = [
    { id: 'monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D' },
    { id: 'annual', type: 'subscription', period: 'P1Y', trial_period: 'P14D', price: 99.99 },
    { id: 'pack_500', type: 'consumable', price: 4.99 },
  ];
  for (const p of products) await app.call('POST', '/sim/products', p);
  await app.call('POST', `${P}/virtual_currencies`, {
    code: 'CRD',
    name: 'Credits',
    description: 'AI credits',
    product_grants: [
      { product_ids: ['monthly'], amount: 100, expire_at_cycle_end: true },
      { product_ids: ['annual'], amount: 1500, trial_amount: 20 },
      { product_ids: ['pack_500'], amount: 500 },
    ],
  });
}
