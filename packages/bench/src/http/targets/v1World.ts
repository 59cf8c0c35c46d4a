/**
 * The v1 bench's world: `customers` customers, `user_0` … `user_{n-1}`, built through the machine's
 * commands (5 × faster than the same through HTTP). Every customer bought the monthly subscription
 * `pro_monthly` (entitlement `pro`); every second one also got a promotional grant (API v1's,
 * `premium` for a month), every third one API v2's grant of `support` (a month), every fourth one
 * bought a consumable (`coins_100`, a non-subscription), every fifth one has two attributes.
 */
import type { BillingSimulator, CommandOf, CommandValues, ProductInput, SimCommandType } from '@tenure/billing-sim';

const DAY_MS = 86_400_000;
const PROJECT = 'proj_sim';

/** The catalog the world needs (the simulator's `products` option). */
export const V1_PRODUCTS: ProductInput[] = [
  { id: 'pro_monthly', type: 'subscription', period: 'P1M', price: 9.99, display_name: 'Pro (monthly)', entitlement_ids: ['pro'] },
  { id: 'coins_100', type: 'consumable', price: 4.99, display_name: '100 coins', entitlement_ids: null },
];

function mustDispatch<T extends SimCommandType>(sim: BillingSimulator, command: CommandOf<T>): CommandValues[T] {
  const out = sim.dispatch(command);
  if (!out.ok) throw new Error(`${command.type}: ${out.error.message}`);
  return out.value;
}

/** Given a simulator started with `V1_PRODUCTS` and a count, makes the customers with their purchases, grants and attributes. */
export function buildV1World(sim: BillingSimulator, customers: number): void {
  mustDispatch(sim, { type: 'create_entitlement', project_id: PROJECT, lookup_key: 'premium', display_name: 'Premium' });
  const support = mustDispatch(sim, { type: 'create_entitlement', project_id: PROJECT, lookup_key: 'support', display_name: 'Priority support' });
  const buy = (customerId: string, productId: string) =>
    mustDispatch(sim, { type: 'purchase', project_id: PROJECT, customer_id: customerId, product_id: productId, trial: false, presented_offering_id: null, country_code: null, environment: null, store: null });
  for (let i = 0; i < customers; i += 1) {
    const id = `user_${i}`;
    buy(id, 'pro_monthly');
    if (i % 2 === 0) mustDispatch(sim, { type: 'grant_promotional', project_id: PROJECT, customer_id: id, lookup_key: 'premium', grant: { duration: 'monthly', start_at: null } });
    if (i % 3 === 0) mustDispatch(sim, { type: 'grant_entitlement', project_id: PROJECT, customer_id: id, entitlement_id: support.id, expires_at: sim.now() + 30 * DAY_MS });
    if (i % 4 === 0) buy(id, 'coins_100');
    if (i % 5 === 0) {
      mustDispatch(sim, { type: 'set_attributes', project_id: PROJECT, customer_id: id, attributes: [{ name: '$email', value: `${id}@example.com` }, { name: 'plan_source', value: 'bench' }] });
    }
  }
}
