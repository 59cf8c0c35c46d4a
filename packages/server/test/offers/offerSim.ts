/**
 * The billing simulator as RevenueCat for the offer tests: served over HTTP on 127.0.0.1 at the
 * test clock's T0, with an entitlement `pro` and the customers offers are granted to.
 */
import { startBillingSim, type RunningBillingSim } from '@tenure/billing-sim';
import { resolveOffers, type OffersConfig } from '@tenure/core';
import type { OffersOptions } from '../../src/index.js';
import { T0 } from '../helpers/fixtures.js';

export const SIM_KEY = 'sk_offers';

export interface OfferSim {
  running: RunningBillingSim;
  project: string;
  /** The id of the simulator's entitlement `pro` (what an offer names). */
  pro: string;
  /** Calls the simulator's API with its key. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The entitlements active for a customer now, read back through API v2. */
  active(customerId: string): Promise<{ entitlement_id: string; expires_at: number | null }[]>;
  /** The service's offer options over this simulator: `section` with `entitlement: 'pro'` replaced by the id. */
  offers(section: OffersConfig): OffersOptions;
  stop(): Promise<void>;
}

/** Starts the simulator (optionally sending its webhooks to `webhookUrl`) and creates `customers` in it. */
export async function startOfferSim(customers: readonly string[], webhookUrl?: string): Promise<OfferSim> {
  const running = await startBillingSim({
    port: 0,
    seed: 'offers',
    now: T0,
    apiKey: SIM_KEY,
    log: () => undefined,
    rateLimits: false,
    ...(webhookUrl === undefined ? {} : { webhook: { url: webhookUrl, retry_schedule: 'fast' } }),
  });
  const project = running.sim.settings.default_project_id;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${running.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${SIM_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? null : JSON.parse(text) };
  };
  const created = await call('POST', `/v2/projects/${project}/entitlements`, { lookup_key: 'pro', display_name: 'Pro' });
  if (created.status !== 201) throw new Error(`entitlement: ${JSON.stringify(created)}`);
  const pro = created.body.id as string;
  for (const id of customers) {
    const made = await call('POST', `/v2/projects/${project}/customers`, { id });
    if (made.status !== 201) throw new Error(`customer ${id}: ${JSON.stringify(made)}`);
  }
  return {
    running,
    project,
    pro,
    call,
    active: async (customerId) => (await call('GET', `/v2/projects/${project}/customers/${encodeURIComponent(customerId)}/active_entitlements`)).body.items,
    offers: (section) => ({
      offers: resolveOffers(section).map((o) => (o.entitlement === 'pro' ? { ...o, entitlement: pro } : o)),
      apiKey: SIM_KEY,
      project,
      baseUrl: `${running.url}/v2`,
    }),
    stop: () => running.stop(),
  };
}
