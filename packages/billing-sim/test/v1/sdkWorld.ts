/**
 * The world the SDK tests run against: a real `tenure-billing-sim` process with a secret key, a
 * catalog (a monthly plan with a trial, an annual plan, a credit pack), a currency, two offerings
 * and placements, all set up through the simulator's own APIs; and a small client for them.
 */
import { startReceiver, type Receiver } from '../helpers.js';
import { startSim, type SimProcess } from '../edge/simProcess.js';

export const SECRET = 'sk_sim_test_secret';
const P = '/v2/projects/proj_sim';

export interface SdkWorld {
  sim: SimProcess;
  receiver: Receiver;
  /** The default project's Test Store public key, as `GET …/public_api_keys` gives it. */
  publicKey: string;
  /** Calls the simulator with the secret key. */
  call(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** Starts the simulator process (webhooks to a local receiver) and sets up the catalog, currency, offerings and placements. */
export async function startSdkWorld(): Promise<SdkWorld> {
  const receiver = await startReceiver();
  const sim = await startSim(['--webhook-url', receiver.url, '--retry-schedule', 'fast'], { BILLING_SIM_API_KEY: SECRET });
  const call = async (method: string, path: string, body?: unknown, key = SECRET) => {
    const res = await fetch(sim.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await ok('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D', price: 9.99, display_name: 'Monthly', entitlement_ids: ['pro'] });
  await ok('POST', '/sim/products', { id: 'annual', type: 'subscription', period: 'P1Y', price: 79.99, display_name: 'Annual', entitlement_ids: ['pro'] });
  await ok('POST', '/sim/products', { id: 'pack', type: 'consumable', price: 4.99, display_name: 'Credit pack' });
  await ok('POST', `${P}/virtual_currencies`, { code: 'CRD', name: 'Credits', description: 'AI credits', product_grants: [{ product_ids: ['monthly'], amount: 100 }, { product_ids: ['pack'], amount: 500 }] });
  const offering = async (lookupKey: string, packages: [string, string][]) => {
    const id = (await ok('POST', `${P}/offerings`, { lookup_key: lookupKey, display_name: lookupKey })).id as string;
    for (const [pkg, product] of packages) {
      const pkgId = (await ok('POST', `${P}/offerings/${id}/packages`, { lookup_key: pkg, display_name: pkg })).id as string;
      await ok('POST', `${P}/packages/${pkgId}/actions/attach_products`, { products: [{ product_id: product, eligibility_criteria: 'all' }] });
    }
    return id;
  };
  await offering('default', [['$rc_monthly', 'monthly'], ['$rc_annual', 'annual']]);
  const sale = await offering('sale', [['$rc_annual', 'annual']]);
  await ok('POST', '/sim/projects/proj_sim/placements', { placements: { onboarding: sale, nowhere: null } });
  const keys = await ok('GET', `${P}/apps/app_sim/public_api_keys`);
  return {
    sim,
    receiver,
    publicKey: keys.items[0].key as string,
    call,
    async close() {
      await sim.stop();
      await receiver.close();
    },
  };
}
