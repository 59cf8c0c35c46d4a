/** The official API v2 `SubscriptionTransaction` objects of a simulated subscription. */
import type { SubscriptionState } from '../sim/state.js';

export interface SubscriptionTransactionResource {
  object: 'subscription_transaction';
  id: string;
  purchased_at: number;
  product_store_identifier: string;
  expiration_date: number | null;
  effective_expiration_date: number | null;
}

/**
 * Given a subscription, returns the transactions the simulator keeps: the original purchase and,
 * once it renewed, the current period's (the ones in between are not kept), oldest first.
 *
 * @example
 * subscriptionTransactions(sub).map((t) => t.id); // [original_transaction_id, transaction_id]
 */
export function subscriptionTransactions(sub: SubscriptionState): SubscriptionTransactionResource[] {
  const current: SubscriptionTransactionResource = {
    object: 'subscription_transaction',
    id: sub.transaction_id,
    purchased_at: sub.period_start,
    product_store_identifier: sub.product_id,
    expiration_date: sub.period_end,
    effective_expiration_date: sub.expired_at ?? sub.period_end,
  };
  if (sub.transaction_id === sub.original_transaction_id) return [current];
  const original: SubscriptionTransactionResource = {
    object: 'subscription_transaction',
    id: sub.original_transaction_id,
    purchased_at: sub.original_purchased_at,
    product_store_identifier: sub.product_id,
    expiration_date: null,
    effective_expiration_date: null,
  };
  return [original, current];
}
