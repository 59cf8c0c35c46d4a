// Every transaction of a subscription is kept, and keeping them copies nothing an earlier world
// still sees: a renewal adds one node to a persistent list, so a world a later one was made from
// lists only its own transactions, and two futures of one world do not see each other's.
import { describe, expect, it } from 'vitest';
import { subscriptionTransactions } from '../src/v2/transactionResource.js';
import { toProduct } from '../src/machine/products.js';
import { createWorld, subscriptionIn, transition, type SimCommand, type World } from '../src/index.js';

const WEEK = 7 * 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const settings = { app_id: 'a', store: 'TEST_STORE', environment: 'SANDBOX' as const, default_project_id: 'p', country_code: 'US' };
const parsed = toProduct({ id: 'weekly', type: 'subscription', period: 'P1W' });
if (!parsed.ok) throw new Error(parsed.message);

function step(world: World, command: SimCommand, at = world.now): World {
  const out = transition(world, command, at);
  if (!out.ok) throw new Error(out.error.message);
  return out.world;
}

const idsOf = (world: World, subId: string) => {
  const found = subscriptionIn(world, subId);
  if (found === undefined) throw new Error('no subscription');
  return subscriptionTransactions(found.sub).map((t) => t.id);
};

describe('transaction history', () => {
  it('keeps one transaction per renewal, and an earlier world keeps its own list', () => {
    let world = createWorld(settings, 'history', T0, [parsed.product]);
    const bought = transition(world, { type: 'purchase', project_id: 'p', customer_id: 'u1', product_id: 'weekly', trial: false, presented_offering_id: null, country_code: null }, T0);
    if (!bought.ok || bought.value.kind !== 'subscription') throw new Error('purchase');
    world = bought.world;
    const subId = bought.value.subscription_id;
    const twoWeeks = step(world, { type: 'advance' }, T0 + 2 * WEEK);
    expect(idsOf(twoWeeks, subId)).toHaveLength(3);
    const fiveWeeks = step(twoWeeks, { type: 'advance' }, T0 + 5 * WEEK);
    expect(idsOf(fiveWeeks, subId)).toHaveLength(6);
    expect(idsOf(fiveWeeks, subId).slice(0, 3)).toEqual(idsOf(twoWeeks, subId));
    // Another future of the two-week world: its own renewals, not the first future's.
    const other = step(step(twoWeeks, { type: 'purchase', project_id: 'p', customer_id: 'u2', product_id: 'weekly', trial: false, presented_offering_id: null, country_code: null }), { type: 'advance' }, T0 + 4 * WEEK);
    expect(idsOf(twoWeeks, subId)).toHaveLength(3);
    expect(idsOf(other, subId)).toHaveLength(5);
    expect(idsOf(other, subId).slice(3)).not.toEqual(idsOf(fiveWeeks, subId).slice(3, 5));
    expect(idsOf(world, subId)).toHaveLength(1);
  });
});
