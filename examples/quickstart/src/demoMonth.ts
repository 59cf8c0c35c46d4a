/**
 * A realistic month of a small app, driven through the two services' HTTP APIs: a credits currency
 * with monthly and annual grants and a top-up, trials that convert or lapse, a billing issue that
 * recovers and one that churns, a cancellation, a top-up with spending, then the balances and the
 * at-risk table.
 */
import { call, waitForDeliveries } from './httpClient.js';

export interface DemoCustomer {
  customer_id: string;
  story: string;
}

export interface DemoResult {
  customers: DemoCustomer[];
  /** GET /api/subscribers/{id}/recommend per customer. */
  recommendations: Record<string, RecommendView>;
  /** GET /api/subscribers/{id} per customer. */
  subscribers: Record<string, { state: string; renewals: number; billing_failures: number; product_id: string | null }>;
  /** CRD balance per customer. */
  balances: Record<string, number>;
  atRisk: AtRiskItem[];
  /** trial_nudge check on day 12 of alice's trial. */
  day12: RecommendView;
}

export interface RecommendView {
  customer_id: string;
  risk_score: number;
  risk_band: string;
  breakdown: Record<string, number>;
  recommendations: { action: string; urgency: string; reason: string; priority: number }[];
}

interface AtRiskItem {
  customer_id: string;
  state: string;
  risk_score: number;
  risk_band: string;
  top_recommendation: { action: string; urgency: string } | null;
}

const PROJECT = 'proj_sim';

/** Runs the month. `tag` suffixes customer ids so the demo can run twice against one simulator. */
export async function runDemoMonth(retentionUrl: string, billingUrl: string, tag = ''): Promise<DemoResult> {
  const sim = (path: string, body?: unknown) => call<any>(body === undefined ? 'GET' : 'POST', `${billingUrl}${path}`, body);
  const advance = async (by: string) => {
    await sim('/sim/clock/advance', { by });
    await waitForDeliveries(billingUrl);
  };
  const id = (name: string) => `${name}${tag}`;
  const subs: Record<string, string> = {};
  const buy = async (name: string, product_id: string, trial = false) => {
    const result = await sim('/sim/purchases', { customer_id: id(name), product_id, trial });
    if (result.subscription_id) subs[name] = result.subscription_id as string;
  };

  // The catalog: a monthly plan with a 14-day trial, an annual plan, and a one-time credit pack.
  await sim('/sim/products', { id: 'pro_monthly', type: 'subscription', period: 'P1M', trial_period: 'P14D', price: 9.99, display_name: 'Pro Monthly' });
  await sim('/sim/products', { id: 'pro_annual', type: 'subscription', period: 'P1Y', price: 79.99, display_name: 'Pro Annual' });
  await sim('/sim/products', { id: 'credits_500', type: 'consumable', price: 4.99, display_name: '500 credits' });

  // The seed's hybrid pattern: monthly grants less than annual (use it or lose it), top-ups for more.
  const grants = {
    product_grants: [
      { product_ids: ['pro_monthly'], amount: 100, expire_at_cycle_end: true, trial_amount: 20 },
      { product_ids: ['pro_annual'], amount: 1500 },
      { product_ids: ['credits_500'], amount: 500 },
    ],
  };
  const currencies = `${billingUrl}/v2/projects/${PROJECT}/virtual_currencies`;
  const existing = await call<{ items: { code: string }[] }>('GET', currencies);
  if (existing.items.some((c) => c.code === 'CRD')) await call('POST', `${currencies}/CRD`, grants);
  else await call('POST', currencies, { code: 'CRD', name: 'Credits', description: 'AI generations', ...grants });

  const customers: DemoCustomer[] = [
    { customer_id: id('alice'), story: 'trial that converts' },
    { customer_id: id('bob'), story: 'trial cancelled on day 11, lapses' },
    { customer_id: id('carol'), story: 'monthly, card fails at renewal, recovers in grace' },
    { customer_id: id('dave'), story: 'monthly, card fails at renewal with no grace: churns' },
    { customer_id: id('erin'), story: 'annual, cancels on day 6' },
    { customer_id: id('frank'), story: 'monthly, active, buys a top-up and spends credits' },
  ];

  // Day 1
  await buy('alice', 'pro_monthly', true);
  await buy('bob', 'pro_monthly', true);
  await buy('carol', 'pro_monthly');
  await buy('dave', 'pro_monthly');
  await buy('erin', 'pro_annual');
  await buy('frank', 'pro_monthly');
  await waitForDeliveries(billingUrl);

  // Day 6: erin cancels; frank spends credits, and the app reports that he was active.
  await advance('P5D');
  await sim(`/sim/subscriptions/${subs['erin']}/cancel`, {});
  await call('POST', `${billingUrl}/v2/projects/${PROJECT}/customers/${id('frank')}/virtual_currencies/transactions`, {
    adjustments: { CRD: -60 },
    reference: 'generation-batch-1',
  });
  const clock = await sim('/sim/clock');
  await call('POST', `${retentionUrl}/api/subscribers/${id('frank')}/activity`, { at: clock.now });

  // Day 11: bob cancels his trial. Day 12: alice is nudged.
  await advance('P5D');
  await sim(`/sim/subscriptions/${subs['bob']}/cancel`, {});
  await advance('P1D');
  await waitForDeliveries(billingUrl);
  const day12 = await call<RecommendView>('GET', `${retentionUrl}/api/subscribers/${id('alice')}/recommend`);

  // Day 15: alice's trial converts, bob's lapses. Day 21: frank buys a top-up and spends again.
  await advance('P3D');
  await advance('P6D');
  await buy('frank', 'credits_500');
  await call('POST', `${billingUrl}/v2/projects/${PROJECT}/customers/${id('frank')}/virtual_currencies/transactions`, {
    adjustments: { CRD: -120 },
    reference: 'generation-batch-2',
  });
  const clock21 = await sim('/sim/clock');
  await call('POST', `${retentionUrl}/api/subscribers/${id('frank')}/activity`, { at: clock21.now });

  // Carol's and dave's cards fail at their next renewal (day 32); carol has a 3-day grace period.
  await sim(`/sim/subscriptions/${subs['carol']}/billing_issue`, { when: 'next_renewal', grace_period: 'P3D' });
  await sim(`/sim/subscriptions/${subs['dave']}/billing_issue`, { when: 'next_renewal' });
  await advance('P11D'); // day 32: renewals, failures
  await sim(`/sim/subscriptions/${subs['carol']}/recover`, {});
  await advance('P3D'); // day 35
  await waitForDeliveries(billingUrl);

  const recommendations: DemoResult['recommendations'] = {};
  const subscribers: DemoResult['subscribers'] = {};
  const balances: DemoResult['balances'] = {};
  for (const { customer_id } of customers) {
    recommendations[customer_id] = await call<RecommendView>('GET', `${retentionUrl}/api/subscribers/${customer_id}/recommend`);
    subscribers[customer_id] = await call<DemoResult['subscribers'][string]>('GET', `${retentionUrl}/api/subscribers/${customer_id}`);
    const list = await call<{ items: { currency_code: string; balance: number }[] }>(
      'GET',
      `${billingUrl}/v2/projects/${PROJECT}/customers/${customer_id}/virtual_currencies?include_empty_balances=true`,
    );
    balances[customer_id] = list.items.find((b) => b.currency_code === 'CRD')?.balance ?? 0;
  }
  const atRisk = await call<{ items: AtRiskItem[] }>('GET', `${retentionUrl}/api/at-risk?min_score=0&limit=500`);
  return {
    customers,
    recommendations,
    subscribers,
    balances,
    atRisk: atRisk.items.filter((item) => customers.some((c) => c.customer_id === item.customer_id)),
    day12,
  };
}
