/**
 * The overview metrics against the Subscription objects API v2 answers for the same world: whatever
 * lifecycle a population goes through, the overview counts what those objects say.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toSubscriptionResource } from '../../src/v2/subscriptionResource.js';
import { toProduct } from '../../src/machine/products.js';
import { createWorld, customersOf, overviewMetrics, transition, type SimCommand, type World } from '../../src/index.js';

const DAY = 86_400_000;
const SETTINGS = { app_id: 'app_sim', store: 'TEST_STORE', environment: 'PRODUCTION' as const, default_project_id: 'p', country_code: 'US' };
const CATALOG = [
  { id: 'monthly', type: 'subscription' as const, period: 'P1M', trial_period: 'P7D', price: 9.99 },
  { id: 'annual', type: 'subscription' as const, period: 'P1Y', price: 59.99 },
  { id: 'weekly', type: 'subscription' as const, period: 'P1W', price: 2.49 },
  { id: 'pack', type: 'consumable' as const, price: 4.99 },
].map((p) => {
  const r = toProduct(p);
  if (!r.ok) throw new Error(r.message);
  return r.product;
});

type Step =
  | { kind: 'buy'; customer: number; product: string; trial: boolean; sandbox: boolean }
  | { kind: 'cancel' | 'refund' | 'recover' | 'expire'; sub: number }
  | { kind: 'billing_issue'; sub: number; grace_days: number | null };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('buy' as const), customer: fc.nat(5), product: fc.constantFrom('monthly', 'annual', 'weekly', 'pack'), trial: fc.boolean(), sandbox: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('cancel' as const, 'refund' as const, 'recover' as const, 'expire' as const), sub: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('billing_issue' as const), sub: fc.nat(9), grace_days: fc.option(fc.integer({ min: 1, max: 16 }), { nil: null }) }) },
);

function commandOf(world: World, step: Step): SimCommand | null {
  const subs = customersOf(world, 'p').flatMap((c) => c.subscriptions.map((s) => s.id));
  const id = subs.length === 0 ? null : subs[('sub' in step ? step.sub : 0) % subs.length]!;
  switch (step.kind) {
    case 'buy':
      return {
        type: 'purchase', project_id: 'p', customer_id: `u${step.customer}`, product_id: step.product, trial: step.trial && step.product === 'monthly',
        presented_offering_id: null, country_code: null, environment: step.sandbox ? 'SANDBOX' : 'PRODUCTION',
      };
    case 'cancel':
    case 'expire':
      return id === null ? null : { type: step.kind, subscription_id: id, reason: step.kind === 'cancel' ? 'UNSUBSCRIBE' : 'DEVELOPER_INITIATED' };
    case 'refund':
    case 'recover':
      return id === null ? null : { type: step.kind, subscription_id: id };
    case 'billing_issue':
      return id === null ? null : { type: 'billing_issue', subscription_id: id, grace_ms: step.grace_days === null ? null : step.grace_days * DAY, when: 'now' };
  }
}

/** What the Subscription objects of the world's production subscriptions say, counted. */
function fromObjects(world: World) {
  const statuses = customersOf(world, 'p').flatMap((c) =>
    c.subscriptions
      .filter((s) => s.environment === 'PRODUCTION')
      .map((s) => toSubscriptionResource(s, c, { settings: SETTINGS, products: world.products, base: '/v2/projects/p' }).status),
  );
  return {
    active_trials: statuses.filter((s) => s === 'trialing').length,
    active_subscriptions: statuses.filter((s) => s === 'active' || s === 'in_grace_period').length,
  };
}

describe('overview metrics', () => {
  it("count the trials and the active subscriptions the Subscription objects show; MRR is positive exactly when some are active; a customer first seen in the window was seen in it", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dt: fc.integer({ min: 0, max: 20 * DAY }), step: stepArb }), { minLength: 1, maxLength: 40 }),
        (steps) => {
          let world = createWorld(SETTINGS, 'metrics', Date.UTC(2026, 0, 1), CATALOG);
          for (const { dt, step } of steps) {
            const command = commandOf(world, step);
            const out = command === null ? transition(world, { type: 'advance' }, world.now + dt) : transition(world, command, world.now + dt);
            if (out.ok) world = out.world;
            const m = Object.fromEntries(overviewMetrics(world, 'p').map((x) => [x.id, x.value])) as Record<string, number>;
            expect({ active_trials: m['active_trials'], active_subscriptions: m['active_subscriptions'] }).toEqual(fromObjects(world));
            expect(m['mrr']! > 0).toBe(m['active_subscriptions']! > 0);
            expect(m['revenue']).toBeGreaterThanOrEqual(0);
            expect(m['active_users']).toBeGreaterThanOrEqual(m['new_customers']!);
            expect(m['active_users']).toBeLessThanOrEqual(customersOf(world, 'p').length);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
