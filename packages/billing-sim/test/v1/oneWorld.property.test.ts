/**
 * One world, three views: whatever mix of API v1, API v2 and /sim commands runs, on whatever clock,
 * API v1's customer info agrees with API v2's reads: the same active entitlements until the same
 * instants, the same subscribed products and the same owned one-time purchases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBillingSimulator, createRequestHandler } from '../../src/index.js';

const CUSTOMERS = ['ann', 'bob', '$RCAnonymousID:0a1b'];
const V2 = '/v2/projects/proj_sim';

type Step =
  | { kind: 'sim_buy'; customer: string; product: string; trial: boolean }
  | { kind: 'receipt'; customer: string; product: string; token: number }
  | { kind: 'grant_v1'; customer: string; entitlement: string; duration: string }
  | { kind: 'revoke_v1' | 'revoke_v2'; customer: string; entitlement: string }
  | { kind: 'grant_v2'; customer: string; entitlement: string; hours: number }
  | { kind: 'store_action'; customer: string; product: string; action: 'revoke' | 'defer' | 'cancel' | 'refund' }
  | { kind: 'billing_issue'; customer: string; grace: boolean }
  | { kind: 'transfer' | 'identify'; customer: string; target: string }
  | { kind: 'advance'; minutes: number };

const customer = fc.constantFrom(...CUSTOMERS);
const product = fc.constantFrom('monthly', 'annual', 'pack');
const entitlement = fc.constantFrom('pro', 'extra');
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('sim_buy' as const), customer, product, trial: fc.boolean() }),
  fc.record({ kind: fc.constant('receipt' as const), customer, product, token: fc.nat(5) }),
  fc.record({ kind: fc.constant('grant_v1' as const), customer, entitlement, duration: fc.constantFrom('daily', 'weekly', 'monthly', 'lifetime') }),
  fc.record({ kind: fc.constantFrom('revoke_v1' as const, 'revoke_v2' as const), customer, entitlement }),
  fc.record({ kind: fc.constant('grant_v2' as const), customer, entitlement, hours: fc.integer({ min: 1, max: 2000 }) }),
  fc.record({ kind: fc.constant('store_action' as const), customer, product: fc.constantFrom('monthly', 'annual'), action: fc.constantFrom('revoke' as const, 'defer' as const, 'cancel' as const, 'refund' as const) }),
  fc.record({ kind: fc.constant('billing_issue' as const), customer, grace: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('transfer' as const, 'identify' as const), customer, target: customer }),
  fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 60 * 24 * 90 }) }),
);

function world() {
  const sim = createBillingSimulator({ seed: 'one-world', now: Date.UTC(2026, 0, 1) });
  const handle = createRequestHandler(sim, { rateLimits: false });
  const call = (method: string, path: string, body?: unknown, key = 'sk_x') =>
    handle({ method, path: path.split('?')[0]!, search: path.split('?')[1] ?? '', query: {}, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, rawBody: body === undefined ? '' : JSON.stringify(body) });
  call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D', entitlement_ids: ['pro'] });
  call('POST', '/sim/products', { id: 'annual', type: 'subscription', period: 'P1Y', entitlement_ids: ['pro'] });
  call('POST', '/sim/products', { id: 'pack', type: 'consumable' });
  const ids: Record<string, string> = {};
  for (const key of ['pro', 'extra']) ids[key] = (call('POST', `${V2}/entitlements`, { lookup_key: key, display_name: key }).body as { id: string }).id;
  return { sim, call, ids };
}

type World = ReturnType<typeof world>;
const id = (c: string) => encodeURIComponent(c);

function run(w: World, step: Step): void {
  const { call, ids } = w;
  const subOf = (c: string) => ((call('GET', `/sim/customers/${id(c)}`).body as { subscriptions?: { id: string; status: string }[] }).subscriptions ?? []).find((s) => s.status !== 'expired');
  switch (step.kind) {
    case 'sim_buy':
      return void call('POST', '/sim/purchases', { project_id: 'proj_sim', customer_id: step.customer, product_id: step.product, trial: step.trial });
    case 'receipt':
      return void call('POST', '/v1/receipts', { app_user_id: step.customer, fetch_token: `tok${step.token}`, product_id: step.product }, 'test_key');
    case 'grant_v1':
      return void call('POST', `/v1/subscribers/${id(step.customer)}/entitlements/${step.entitlement}/promotional`, { duration: step.duration });
    case 'revoke_v1':
      return void call('POST', `/v1/subscribers/${id(step.customer)}/entitlements/${step.entitlement}/revoke_promotionals`);
    case 'grant_v2':
      return void call('POST', `${V2}/customers/${id(step.customer)}/actions/grant_entitlement`, { entitlement_id: ids[step.entitlement], expires_at: w.sim.now() + step.hours * 3_600_000 });
    case 'revoke_v2':
      return void call('POST', `${V2}/customers/${id(step.customer)}/actions/revoke_granted_entitlement`, { entitlement_id: ids[step.entitlement] });
    case 'store_action': {
      const sub = (call('GET', `/v1/subscribers/${id(step.customer)}`).body as { subscriber?: { subscriptions: Record<string, { store_transaction_id: string }> } }).subscriber?.subscriptions[step.product];
      const base = `/v1/subscribers/${id(step.customer)}`;
      if (step.action === 'revoke') return void call('POST', `${base}/subscriptions/${step.product}/revoke`);
      if (step.action === 'defer') return void call('POST', `${base}/subscriptions/${step.product}/defer`, { extend_by_days: 3 });
      if (sub === undefined) return;
      if (step.action === 'cancel') return void call('POST', `${base}/subscriptions/${sub.store_transaction_id}/cancel`);
      return void call('POST', `${base}/transactions/${sub.store_transaction_id}/refund`);
    }
    case 'billing_issue': {
      const sub = subOf(step.customer);
      if (sub !== undefined) call('POST', `/sim/subscriptions/${sub.id}/billing_issue`, { grace_period: step.grace ? 'P3D' : null });
      return;
    }
    case 'transfer':
      return void call('POST', `${V2}/customers/${id(step.customer)}/actions/transfer`, { target_customer_id: step.target });
    case 'identify':
      return void call('POST', '/v1/subscribers/identify', { app_user_id: step.customer, new_app_user_id: step.target }, 'test_key');
    case 'advance':
      return void call('POST', '/sim/clock/advance', { by: `PT${step.minutes}M` });
  }
}

/** What API v2 says of a customer, and what API v1 says, in the same terms. */
function views(w: World, c: string) {
  const lookup = Object.fromEntries(Object.entries(w.ids).map(([key, v]) => [v, key]));
  const v2 = w.call('GET', `${V2}/customers/${id(c)}`).body as { active_entitlements: { items: { entitlement_id: string; expires_at: number | null }[] } };
  const v2Subs = (w.call('GET', `${V2}/customers/${id(c)}/subscriptions?limit=100`).body as { items: { product_id: string }[] }).items;
  const v2Purchases = (w.call('GET', `${V2}/customers/${id(c)}/purchases?limit=100`).body as { items: { product_id: string; status: string }[] }).items;
  const v1 = (w.call('GET', `/v1/subscribers/${id(c)}`).body as { request_date_ms: number; subscriber: any }).subscriber;
  const now = w.sim.now();
  const v1Active = Object.entries(v1.entitlements as Record<string, { expires_date: string | null }>)
    .filter(([, e]) => e.expires_date === null || Date.parse(e.expires_date) > now)
    .map(([key, e]) => [key, e.expires_date === null ? null : Date.parse(e.expires_date)]);
  return {
    v2: {
      active: v2.active_entitlements.items.map((e) => [lookup[e.entitlement_id], e.expires_at]).sort(),
      products: [...new Set(v2Subs.map((s) => s.product_id))].sort(),
      owned: [...new Set(v2Purchases.filter((p) => p.status === 'owned').map((p) => p.product_id))].sort(),
    },
    v1: {
      active: v1Active.sort(),
      products: Object.keys(v1.subscriptions).filter((k) => !k.startsWith('rc_promo_')).sort(),
      owned: Object.keys(v1.non_subscriptions).sort(),
    },
  };
}

describe('one world: API v1 agrees with API v2 and /sim', () => {
  it('after any mix of commands, v1 customer info tells what the v2 reads tell', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 30 }), (steps) => {
        const w = world();
        for (const step of steps) {
          run(w, step);
          for (const c of CUSTOMERS) {
            if (w.call('GET', `${V2}/customers/${id(c)}`).status !== 200) continue;
            const { v1, v2 } = views(w, c);
            expect(v1).toEqual(v2);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
