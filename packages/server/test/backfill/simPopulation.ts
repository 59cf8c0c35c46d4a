// A small simulated population for the backfill tests: purchases with and without trials, renewals
// over a clock advance, an opt-out, billing issues with and without grace, a subscription refund,
// one-time purchases and a refunded one, on a real simulator served over HTTP (rate limits on).
import { startBillingSim, type RunningBillingSim } from '@tenure/billing-sim';
import { DEFAULT_CONFIG, parseWebhook, transferEventSchema, type Subscriber, type SubscriberStore } from '@tenure/core';
import { createMemorySubscriberStore } from '../../src/store/memorySubscriberStore.js';

export const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

/** Starts a simulator on a free port with rate limits of `limit` Customer Information requests per `windowMs`. */
export async function startSim(limit: number, windowMs: number, apiKey = 'sk_test'): Promise<RunningBillingSim> {
  return startBillingSim({
    port: 0,
    seed: 'backfill',
    now: T0,
    environment: 'PRODUCTION',
    store: 'APP_STORE',
    apiKey,
    log: () => undefined,
    products: [
      { id: 'monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D', price: 9.99 },
      // Bought without a trial: the simulator's total_revenue_in_usd leaves out one period of a trial
      // product bought without its trial (it estimates the periods billed), so those buy this one.
      { id: 'monthly_plain', type: 'subscription', period: 'P1M', price: 9.99 },
      { id: 'annual', type: 'subscription', period: 'P1Y', price: 79.99 },
      { id: 'pack', type: 'consumable', price: 4.99 },
    ],
    rateLimits: { limits: { customer_information: limit }, window_ms: windowMs },
  });
}

/** Drives `customers` customers through a few months of lifecycles (every fifth one differently). */
export function populate(running: RunningBillingSim, customers: number): void {
  const sim = running.sim;
  const project_id = sim.settings.default_project_id;
  const subs: string[] = [];
  const buy = (c: number, product_id: string, trial: boolean) => {
    const r = sim.dispatch({ type: 'purchase', project_id, customer_id: `c${String(c).padStart(3, '0')}`, product_id, trial, presented_offering_id: null, country_code: 'US' });
    if (!r.ok) throw new Error(JSON.stringify(r));
    return r.value;
  };
  for (let c = 0; c < customers; c += 1) {
    sim.advanceBy(HOUR + 60_000);
    const annual = c % 7 === 6;
    const trial = !annual && c % 2 === 0;
    const bought = buy(c, annual ? 'annual' : trial ? 'monthly' : 'monthly_plain', trial);
    subs.push(bought.kind === 'subscription' ? bought.subscription_id : '');
  }
  sim.advanceBy(20 * 24 * HOUR);
  for (let c = 0; c < customers; c += 1) {
    const sub = subs[c] ?? '';
    if (c % 5 === 1) sim.dispatch({ type: 'cancel', subscription_id: sub, reason: 'UNSUBSCRIBE' });
    if (c % 5 === 2) sim.dispatch({ type: 'billing_issue', subscription_id: sub, grace_ms: 3 * 24 * HOUR, when: 'next_renewal' });
    if (c % 5 === 3) sim.dispatch({ type: 'billing_issue', subscription_id: sub, grace_ms: null, when: 'next_renewal' });
    if (c % 10 === 4) {
      const pack = buy(c, 'pack', false);
      if (c % 20 === 4) sim.dispatch({ type: 'refund_purchase', project_id, transaction_id: pack.transaction_id });
    }
  }
  sim.advanceBy('P2M');
  for (let c = 0; c < customers; c += 1) if (c % 10 === 9) sim.dispatch({ type: 'refund', subscription_id: subs[c] ?? '' });
  sim.advanceBy(26 * HOUR);
}

/** The simulator's webhooks folded into a fresh store (what delivery would have built; a TRANSFER as the webhook handler applies it). */
export async function byWebhooks(running: RunningBillingSim): Promise<SubscriberStore> {
  const store = createMemorySubscriberStore();
  const ctx = { now: running.sim.now(), config: DEFAULT_CONFIG };
  for (const body of running.sim.events()) {
    const parsed = parseWebhook(JSON.parse(JSON.stringify(body)));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    if (parsed.value.handled) await store.applyEvent(parsed.value.event, ctx);
    else if (parsed.value.event.type === 'TRANSFER') await store.applyTransfer(transferEventSchema.parse(parsed.value.event), ctx);
  }
  return store;
}

/** What a backfill can know and must agree with webhooks on (docs/import.md, "Backfill over API v2"). */
export const facts = (s: Subscriber) => ({
  customer_id: s.customer_id,
  state: s.state,
  product_id: s.product_id,
  period_ends_at: s.period_ends_at,
  renewals: s.renewals,
  trial_started_at: s.trial_started_at,
  trial_ends_at: s.trial_ends_at,
  grace_ends_at: s.grace_ends_at ?? null,
  price: s.revenue?.price ?? null,
});

export async function factsOf(store: SubscriberStore): Promise<ReturnType<typeof facts>[]> {
  const out: ReturnType<typeof facts>[] = [];
  for await (const s of store.list()) out.push(facts(s));
  return out.sort((a, b) => (a.customer_id < b.customer_id ? -1 : 1));
}
