/** A real `startRetentionServer` on 127.0.0.1:0 for the dashboard's tests, fed with real webhook fixtures. */
import { pino } from 'pino';
import {
  createMemoryChatNotifier,
  createMemoryEmailNotifier,
  fixedClock,
  startRetentionServer,
  type RunningRetentionServer,
  type StartOptions,
} from '../../src/index.js';
import { DAY, fixture, T0 } from '../helpers/fixtures.js';

export type Profile = 'active' | 'trial' | 'pending' | 'billing' | 'churned';

export interface DashboardServer {
  url: string;
  running: RunningRetentionServer;
  /** POSTs a webhook body; resolves with the status. */
  webhook(body: unknown): Promise<number>;
  /** Puts a customer in a profile through real webhooks (as ../helpers/seed.ts, with the customer's own transaction ids). */
  seed(customer: string, profile: Profile, offset?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the service at T0 (fixed clock) with memory notifiers and no send delay. */
export async function startDashboardServer(options: StartOptions = {}): Promise<DashboardServer> {
  const running = await startRetentionServer({
    port: 0,
    handleSignals: false,
    clock: fixedClock(T0),
    logger: pino({ level: 'silent' }),
    notifiers: [createMemoryEmailNotifier(), createMemoryChatNotifier()],
    sweepIntervalMs: 0,
    ...options,
    dispatch: { sleep: () => Promise.resolve(), ...options.dispatch },
  });
  const webhook = async (body: unknown) => {
    const res = await fetch(`${running.url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    await res.arrayBuffer();
    return res.status;
  };
  const seed = async (customer: string, profile: Profile, offset = 0) => {
    for (const body of profileEvents(customer, profile, offset)) {
      const status = await webhook(body);
      if (status !== 200) throw new Error(`seed ${customer}: HTTP ${status}`);
    }
  };
  return {
    url: running.url,
    running,
    webhook,
    seed,
    close: () => running.close(),
  };
}

/** Scores at T0: churned 100, billing 90, pending 60, trial 40, active 10 (see ../atRisk.http.test.ts). */
export async function seedPopulation(server: DashboardServer): Promise<void> {
  await server.seed('churned-1', 'churned');
  await server.seed('billing-1', 'billing');
  await server.seed('pending-1', 'pending');
  await server.seed('trial-1', 'trial');
  await server.seed('active-1', 'active');
  await server.seed('active-2', 'active');
}

/** The webhook bodies that lead `customer` to `profile`, at T0 + offset; every transaction id is the customer's own. */
export function profileEvents(customer: string, profile: Profile, offset = 0): unknown[] {
  const at = T0 + offset;
  const ids = { app_user_id: customer, original_app_user_id: customer, aliases: [customer], transaction_id: `${customer}-t1`, original_transaction_id: `${customer}-t1` };
  const base = { ...ids, event_timestamp_ms: at, purchased_at_ms: at, expiration_at_ms: at + 30 * DAY };
  const events = [
    profile === 'trial'
      ? fixture('initial_purchase_trial', { ...base, id: `${customer}-start`, expiration_at_ms: at + 14 * DAY })
      : fixture('initial_purchase', { ...base, id: `${customer}-start` }),
  ];
  const later = { ...base, event_timestamp_ms: at + 1 };
  if (profile === 'pending') events.push(fixture('cancellation', { ...later, id: `${customer}-cancel` }));
  if (profile === 'billing') events.push(fixture('billing_issue', { ...later, id: `${customer}-billing` }));
  if (profile === 'churned') events.push(fixture('expiration', { ...later, id: `${customer}-expire` }));
  return events;
}

/** A churned customer's events (a purchase, then its expiration), as webhook bodies. */
export const churnEvents = (customer: string) => profileEvents(customer, 'churned');
