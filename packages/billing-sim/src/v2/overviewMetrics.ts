/**
 * API v2's overview metrics (`OverviewMetrics`), computed from the virtual world at its clock: a
 * stand-in for a team's dashboard tests. What each counts (the real service's definitions, read for
 * the simulator's world):
 * - `active_trials`: subscriptions in a free trial now.
 * - `active_subscriptions`: paid subscriptions that are not expired now (grace periods included; not
 *   trials, pauses or temporary grants).
 * - `mrr`: the active subscriptions' prices, each over its period in months (core `periodMonths`).
 * - `revenue`: gross of the paid transactions of the last 28 days (subscriptions' paid transactions,
 *   refunded ones left out; one-time purchases not refunded).
 * - `new_customers`: customers first seen in the last 28 days; `active_users`: customers seen in them.
 * Like the real service's, they count one environment: the simulator's (`environment` setting), so a
 * sandbox purchase on a production simulator is left out. Prices are USD (the simulator has no rates).
 */
import { periodMonths } from '@tenure/core';
import { forEachCustomer } from '../machine/worldCustomers.js';
import type { World } from '../machine/world.js';
import { paidTransactions } from './paidTransactions.js';

const DAY_MS = 86_400_000;
/** The window of the `P28D` metrics. */
export const METRICS_WINDOW_MS = 28 * DAY_MS;

export interface OverviewMetric {
  object: 'overview_metric';
  id: string;
  name: string;
  description: string;
  unit: string;
  period: 'P0D' | 'P28D';
  value: number;
  last_updated_at: number;
  last_updated_at_iso8601: string;
}

const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * Given a world and a project, returns its overview metrics at the world's clock, in the order the
 * dashboard shows them. Pure.
 *
 * @example
 * overviewMetrics(world, 'proj1').find((m) => m.id === 'mrr')?.value; // 9.99
 */
export function overviewMetrics(world: World, projectId: string): OverviewMetric[] {
  const now = world.now;
  const since = now - METRICS_WINDOW_MS;
  let trials = 0;
  let active = 0;
  let mrr = 0;
  let revenue = 0; // cents
  let newCustomers = 0;
  let activeUsers = 0;
  // Revenue is summed in whole cents, so exactly, whatever the order.
  forEachCustomer(world, projectId, (customer) => {
    if (customer.first_seen_at > since) newCustomers += 1;
    if (customer.last_seen_at > since) activeUsers += 1;
    for (const sub of customer.subscriptions) {
      if (sub.environment !== world.settings.environment) continue;
      const product = world.products.get(sub.product_id);
      const price = product?.price ?? 0;
      if (sub.status === 'trialing') trials += 1;
      if (sub.status === 'active' || sub.status === 'grace') {
        active += 1;
        mrr += price / periodMonths(sub.period_end - sub.period_start);
      }
      const refunded = sub.refund === null ? null : sub.transaction_id;
      for (const t of paidTransactions(sub, product)) if (t.at > since && t.at <= now && t.id !== refunded) revenue += Math.round(price * 100);
    }
    for (const p of customer.purchases) {
      if (p.environment !== world.settings.environment) continue;
      if (!p.refunded && p.purchased_at > since && p.purchased_at <= now) revenue += Math.round((world.products.get(p.product_id)?.price ?? 0) * 100);
    }
  });
  const at = { last_updated_at: now, last_updated_at_iso8601: new Date(now).toISOString() };
  const metric = (id: string, name: string, unit: string, period: 'P0D' | 'P28D', value: number): OverviewMetric => ({
    object: 'overview_metric',
    id,
    name,
    description: period === 'P0D' ? 'In total' : 'Last 28 days',
    unit,
    period,
    value,
    ...at,
  });
  return [
    metric('active_trials', 'Active Trials', '#', 'P0D', trials),
    metric('active_subscriptions', 'Active Subscriptions', '#', 'P0D', active),
    metric('mrr', 'MRR', '$', 'P0D', cents(mrr)),
    metric('revenue', 'Revenue', '$', 'P28D', revenue / 100),
    metric('new_customers', 'New Customers', '#', 'P28D', newCustomers),
    metric('active_users', 'Active Users', '#', 'P28D', activeUsers),
  ];
}
