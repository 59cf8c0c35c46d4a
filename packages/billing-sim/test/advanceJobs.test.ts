// One long clock advance runs every job each earlier job creates on the way: a renewal's new lot
// expires inside the same advance, a resumed pause renews again, a grace period ends.
import { balancesOf } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { toProduct } from '../src/machine/products.js';
import { createWorld, customerIn, transition, type SimCommand, type World } from '../src/index.js';

const WEEK = 7 * 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const settings = { app_id: 'a', store: 'TEST_STORE', environment: 'SANDBOX' as const, default_project_id: 'p', country_code: 'US' };
const parsed = toProduct({ id: 'weekly', type: 'subscription', period: 'P1W' });
if (!parsed.ok) throw new Error(parsed.message);
const weekly = parsed.product;

function setup(): World {
  let world = createWorld(settings, 'jobs', T0, [weekly]);
  const run = (command: SimCommand) => {
    const out = transition(world, command, world.now);
    if (!out.ok) throw new Error(out.error.message);
    world = out.world;
  };
  run({ type: 'create_currency', project_id: 'p', body: { code: 'CRD', name: 'Credits', product_grants: [{ product_ids: ['weekly'], amount: 100, expire_at_cycle_end: true, trial_amount: 0 }] } });
  run({ type: 'purchase', project_id: 'p', customer_id: 'u1', product_id: 'weekly', trial: false, presented_offering_id: null, country_code: null });
  return world;
}

describe('one long advance', () => {
  it("expires each week's credits and renews each week, in one step as in three", () => {
    const start = setup();
    const one = transition(start, { type: 'advance' }, T0 + 3 * WEEK + 1);
    if (!one.ok) throw new Error('advance');
    let stepped = start;
    const steppedEvents: string[] = [];
    for (let w = 1; w <= 3; w += 1) {
      const out = transition(stepped, { type: 'advance' }, T0 + w * WEEK + (w === 3 ? 1 : 0));
      if (!out.ok) throw new Error('advance');
      stepped = out.world;
      steppedEvents.push(...out.events.map((b) => b.event.type));
    }
    expect(one.events.map((b) => b.event.type)).toEqual(steppedEvents);
    expect(one.events.map((b) => b.event.type)).toEqual([
      'VIRTUAL_CURRENCY_TRANSACTION', 'RENEWAL', 'VIRTUAL_CURRENCY_TRANSACTION',
      'VIRTUAL_CURRENCY_TRANSACTION', 'RENEWAL', 'VIRTUAL_CURRENCY_TRANSACTION',
      'VIRTUAL_CURRENCY_TRANSACTION', 'RENEWAL', 'VIRTUAL_CURRENCY_TRANSACTION',
    ]);
    const ledger = customerIn(one.world, 'p', 'u1')!.ledger;
    expect(balancesOf(ledger, one.world.now)['CRD']).toBe(100);
    expect(one.value.jobs_run.map((j) => j.kind)).toEqual(['credit_expiry', 'renewal', 'credit_expiry', 'renewal', 'credit_expiry', 'renewal']);
    expect(one.value.jobs_run[1]).toEqual({ at: T0 + WEEK, kind: 'renewal', project_id: 'p', customer_id: 'u1', subscription_id: customerIn(start, 'p', 'u1')!.subscriptions[0]!.id });
    // Every ledger change is gathered: three expiries and three grants of 100.
    expect(one.grants.flatMap((g) => g.entries.map((e) => [e.kind, e.amount]))).toEqual([
      ['expire', -100], ['grant', 100], ['expire', -100], ['grant', 100], ['expire', -100], ['grant', 100],
    ]);
  });

  it('gives the same world and events without gathering the credit changes (grants: false)', () => {
    const start = setup();
    const gathered = transition(start, { type: 'advance' }, T0 + 3 * WEEK + 1);
    const bare = transition(start, { type: 'advance' }, T0 + 3 * WEEK + 1, { grants: false });
    if (!gathered.ok || !bare.ok) throw new Error('advance');
    expect(bare.grants).toEqual([]);
    expect(bare.events).toEqual(gathered.events);
    expect(bare.world).toEqual(gathered.world);
  });
});
