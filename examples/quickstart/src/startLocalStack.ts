/**
 * The whole system in one process: the billing simulator delivering real HTTP webhooks to the
 * retention service. The retention service reads the simulator's virtual clock, so scores and
 * recommendations follow simulated time even when the clock moves with no event (day 12 of a trial).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SubscriberStore } from '@tenure/core';
import { startBillingSim, type RunningBillingSim } from '@tenure/billing-sim';
import { createLogger, createMemorySubscriberStore, openStore, startRetentionServer, type RunningRetentionServer, type StartOptions } from '@tenure/server';
import { seedCatalog, startPaywallServer, type RunningPaywall } from '@tenure/example-web-paywall';

export interface LocalStackOptions {
  /** Retention service port; default 3000, 0 for a free one. */
  retentionPort?: number;
  /** Simulator port; default 4000, 0 for a free one. */
  billingPort?: number;
  host?: string;
  /** Seed of the simulator's ids and fault decisions. */
  seed?: string;
  /** Shared webhook secret; a random one by default. */
  webhookAuth?: string;
  /** Pino level of the retention service's logs; default "info". */
  logLevel?: string;
  /**
   * The retention service's store: `memory`, or `sqlite` for a fresh SQLite file in a new temporary
   * directory (removed by `close`). Default `memory`.
   */
  store?: 'memory' | 'sqlite';
  /** Extra options for the retention service (notifiers, dispatch, config). */
  retention?: Omit<StartOptions, 'port' | 'host' | 'webhookAuthKey' | 'clock' | 'store'>;
  /**
   * Where the simulator's virtual clock starts (default 2026-01-01T00:00:00Z). `npm start` starts it
   * at the wall clock's now: the SDKs compare expiry dates with the device's clock.
   */
  now?: number;
  /** The simulator's virtual clock follows the wall clock (renewals happen in real time; advancing still jumps ahead). */
  followWallClock?: boolean;
  /**
   * Also serve the web paywall (`examples/web-paywall`: RevenueCat's web SDK buying from the
   * simulator's Test Store) on this port (0: a free one), with its catalog set up. Default: none.
   */
  paywallPort?: number;
}

export interface LocalStack {
  retention: RunningRetentionServer;
  /** Where the retention service keeps its data: `memory` or `sqlite:<path of the fresh file>`. */
  store: string;
  billing: RunningBillingSim;
  /** The paywall, when `paywallPort` was given, and the Test Store key it buys with. */
  paywall: (RunningPaywall & { apiKey: string }) | null;
  webhookAuth: string;
  close(): Promise<void>;
}

/**
 * Starts the retention service and the billing simulator, with the simulator's webhooks pointed at
 * the service's `POST /webhook` (fast retry schedule) and the shared secret on both sides. The
 * simulator's world starts anew each run, so the service's store does too (a fresh SQLite file with
 * `store: 'sqlite'`).
 *
 * @example
 * const stack = await startLocalStack({ retentionPort: 0, billingPort: 0, seed: 'e2e', store: 'sqlite' });
 * await stack.close();
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const host = options.host ?? '127.0.0.1';
  const webhookAuth = options.webhookAuth ?? `Bearer ${randomUUID()}`;
  let billing: RunningBillingSim | undefined;
  const dir = options.store === 'sqlite' ? mkdtempSync(join(tmpdir(), 'tenure-quickstart-')) : undefined;
  const removeDir = () => dir !== undefined && rmSync(dir, { recursive: true, force: true });
  let store: SubscriberStore;
  try {
    store = dir === undefined ? createMemorySubscriberStore() : await openStore({ kind: 'sqlite', path: join(dir, 'tenure.db') });
  } catch (error) {
    removeDir();
    throw error;
  }
  let retention: RunningRetentionServer;
  try {
    retention = await startRetentionServer({
      logger: createLogger({ service: 'tenure', level: options.logLevel ?? 'info' }),
      ...options.retention,
      store,
      port: options.retentionPort ?? 3000,
      host,
      webhookAuthKey: webhookAuth,
      // The simulator's virtual clock once it runs (it starts right after), wall time before.
      clock: { now: () => billing?.sim.now() ?? Date.now() },
      handleSignals: false,
      describe: { clock: 'billing simulator' },
    });
  } catch (error) {
    removeDir(); // the failed start closed the store
    throw error;
  }
  try {
    billing = await startBillingSim({
      port: options.billingPort ?? 4000,
      host,
      seed: options.seed ?? 'quickstart',
      // The local stack plays a production app: the service keeps SANDBOX events apart (read with
      // ?environment=sandbox), and the simulator's purchases default to SANDBOX.
      environment: 'PRODUCTION',
      ...(options.now === undefined ? {} : { now: options.now }),
      followWallClock: options.followWallClock ?? false,
      webhook: { url: `${retention.url}/webhook`, authorization: webhookAuth, retry_schedule: 'fast' },
      log: () => {},
    });
  } catch (error) {
    await retention.close();
    removeDir();
    throw error;
  }
  const running = billing;
  let paywall: LocalStack['paywall'] = null;
  if (options.paywallPort !== undefined) {
    try {
      const apiKey = await seedCatalog(running.url);
      paywall = { ...(await startPaywallServer({ billingUrl: running.url, apiKey, port: options.paywallPort, host })), apiKey };
    } catch (error) {
      await running.stop();
      await retention.close();
      removeDir();
      throw error;
    }
  }
  const shown = paywall;
  return {
    retention,
    store: store.kind,
    billing: running,
    paywall: shown,
    webhookAuth,
    close: async () => {
      await shown?.close();
      await running.stop();
      await retention.close(); // closes the store
      removeDir();
    },
  };
}
