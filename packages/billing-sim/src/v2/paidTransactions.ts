/** Which of a subscription's transactions were paid: what invoices bill and what the revenue metric sums. */
import type { Product, SubscriptionState } from '../machine/world.js';
import { subscriptionTransactions } from './transactionResource.js';

/**
 * Given a subscription and its product, returns its paid transactions (id and when), oldest first:
 * the transactions `subscriptionTransactions` lists, but the first one of a trial, which is free (read
 * as `total_revenue_in_usd` reads it: a product with a trial period started with its trial).
 *
 * @example
 * paidTransactions(sub, monthly).map((t) => t.id); // ['2000000000000000001']
 */
export function paidTransactions(sub: SubscriptionState, product: Product | undefined): { id: string; at: number }[] {
  const trialFirst = sub.period_type === 'TRIAL' || product?.trial_period != null;
  return subscriptionTransactions(sub)
    .filter((t) => !(trialFirst && t.id === sub.original_transaction_id))
    .map((t) => ({ id: t.id, at: t.purchased_at }));
}
