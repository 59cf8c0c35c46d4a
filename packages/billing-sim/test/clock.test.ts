// The virtual clock runs every due job once, in time order, however far it is advanced at a time.
import { describe, expect, it } from 'vitest';
import { createBillingSimulator, createRequestHandler } from '../src/index.js';

/** A simulator with a mix of weekly, monthly (with trials) and yearly subscriptions and expiring grants. */
function buildSim(customers: number) {
  const sim = createBillingSimulator({ seed: 'clock', transport: async () => ({ status: 200 }) });
  const handle = createRequestHandler(sim);
  const post = (path: string, body: unknown) => {
    const res = handle({ method: 'POST', path, query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { subscription_id?: string };
  };
  post('/sim/products', { id: 'weekly', type: 'subscription', period: 'P1W' });
  post('/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D' });
  post('/sim/products', { id: 'yearly', type: 'subscription', period: 'P1Y' });
  post('/v2/projects/proj_sim/virtual_currencies', {
    code: 'CRD',
    name: 'Credits',
    product_grants: [
      { product_ids: ['weekly', 'monthly'], amount: 10, expire_at_cycle_end: true, trial_amount: 2 },
      { product_ids: ['yearly'], amount: 500 },
    ],
  });
  for (let i = 0; i < customers; i += 1) {
    const product = ['weekly', 'monthly', 'yearly'][i % 3]!;
    const sub = post('/sim/purchases', { customer_id: `c${i}`, product_id: product, trial: product === 'monthly' && i % 2 === 0 });
    if (i % 5 === 0) post(`/sim/subscriptions/${sub.subscription_id}/cancel`, {});
    if (i % 7 === 0) post(`/sim/subscriptions/${sub.subscription_id}/billing_issue`, { when: 'next_renewal', grace_period: 'P3D' });
  }
  return sim;
}

describe('virtual clock', () => {
  it('emits the same webhooks whether it advances 90 days at once or one day at a time', () => {
    const once = buildSim(60);
    const daily = buildSim(60);
    const start = once.events().length;
    expect(once.advanceBy('P90D').ok).toBe(true);
    for (let day = 0; day < 90; day += 1) expect(daily.advanceBy('P1D').ok).toBe(true);
    const emitted = once.events().slice(start);
    expect(emitted.length).toBeGreaterThan(300);
    expect(daily.events().slice(start)).toEqual(emitted);
    once.close();
    daily.close();
  });

  it('emits webhooks in time order and renews each subscription once per period', () => {
    const sim = buildSim(300);
    const start = sim.events().length;
    sim.advanceBy('P1M');
    const emitted = sim.events().slice(start).map((body) => body.event as { type: string; app_user_id: string; event_timestamp_ms: number });
    const times = emitted.map((e) => e.event_timestamp_ms);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Weekly subscribers (c0, c3, …) not cancelled and without a planned billing failure renew 4 times in January.
    const renewals = emitted.filter((e) => e.type === 'RENEWAL' && e.app_user_id === 'c3');
    expect(renewals).toHaveLength(4);
    sim.close();
  });

  it('advances through 20,000 renewals in one step', () => {
    const sim = createBillingSimulator({ seed: 'many', transport: async () => ({ status: 200 }), products: [{ id: 'm', type: 'subscription', period: 'P1M' }] });
    const handle = createRequestHandler(sim);
    for (let i = 0; i < 20_000; i += 1) {
      handle({ method: 'POST', path: '/sim/purchases', query: {}, headers: { 'content-type': 'application/json' }, rawBody: `{"customer_id":"u${i}","product_id":"m"}` });
    }
    const result = sim.advanceBy('P1M');
    expect(result.ok && result.value.jobs_run.filter((job) => job.kind === 'renewal')).toHaveLength(20_000);
    sim.close();
  }, 60_000);
});
