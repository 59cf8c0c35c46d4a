/**
 * When a backfill found customers but no subscription or purchase in the environment it read (a
 * project whose purchases are all sandbox, like the billing simulator's Test Store and development
 * purchases), the other environment is sampled so the summary can say what it holds and how to read
 * it, instead of a silent zero.
 */
import { apiCustomerSchema, apiPurchaseSchema, apiSubscriptionSchema } from './apiObjects.js';
import type { ApiV2Client } from './apiV2Client.js';
import type { BackfillEnvironment } from './backfill.js';
import { readAll, readPage } from './readCustomer.js';

/** Customers of the first page sampled: at most 1 + 2 × this many requests. */
export const PROBE_CUSTOMERS = 20;

/** What the sample of the other environment holds. */
export interface EnvironmentProbe {
  environment: BackfillEnvironment;
  /** Customers sampled (the first of the list), those of them with a subscription or purchase there, and their counts. */
  customers_sampled: number;
  customers_with_history: number;
  subscriptions: number;
  purchases: number;
}

/**
 * Given the client, the project and an environment, counts the subscriptions and one-time purchases
 * the first `PROBE_CUSTOMERS` customers of the list have in it. A customer gone meanwhile counts as
 * having none.
 *
 * @example
 * const sandbox = await probeEnvironment(api, 'proj_sim', 'sandbox');
 * sandbox.subscriptions; // 3
 */
export async function probeEnvironment(api: ApiV2Client, project: string, environment: BackfillEnvironment): Promise<EnvironmentProbe> {
  const projectPath = `/projects/${encodeURIComponent(project)}`;
  const page = await readPage(api, `${projectPath}/customers?limit=${PROBE_CUSTOMERS}`, null, apiCustomerSchema);
  const probe: EnvironmentProbe = { environment, customers_sampled: page.items.length, customers_with_history: 0, subscriptions: 0, purchases: 0 };
  for (const customer of page.items) {
    const path = `${projectPath}/customers/${encodeURIComponent(customer.id)}`;
    const subscriptions = (await readAll(api, `${path}/subscriptions?environment=${environment}&limit=100`, apiSubscriptionSchema).catch(() => [])).filter((s) => s.environment === environment);
    const purchases = (await readAll(api, `${path}/purchases?environment=${environment}&limit=100`, apiPurchaseSchema).catch(() => [])).filter((p) => p.environment === environment);
    probe.subscriptions += subscriptions.length;
    probe.purchases += purchases.length;
    if (subscriptions.length + purchases.length > 0) probe.customers_with_history += 1;
  }
  return probe;
}

/**
 * Given the environment read, its customer count and the probe of the other one, returns the line
 * that says what the other holds and how to read it, or null when it holds nothing either. Pure.
 *
 * @example
 * otherEnvironmentLine('production', 3, probe);
 * // 'production holds no subscription or purchase of its 3 customers; sandbox does (…): run it again with --environment sandbox …'
 */
export function otherEnvironmentLine(read: BackfillEnvironment, customers: number, probe: EnvironmentProbe): string | null {
  if (probe.subscriptions + probe.purchases === 0) return null;
  const of = `of the first ${probe.customers_sampled} customers, ${probe.customers_with_history} have ${probe.subscriptions} subscription${probe.subscriptions === 1 ? '' : 's'} and ${probe.purchases} purchase${probe.purchases === 1 ? '' : 's'} there`;
  const store = probe.environment === 'sandbox' ? 'into the sandbox store, as sandbox webhooks go' : 'into the production store';
  return `${read} holds no subscription or purchase of its ${customers} customer${customers === 1 ? '' : 's'}, but ${probe.environment} does (${of}): run it again with --environment ${probe.environment} to read them (${store})`;
}
