/** The official API v2 `SubscriptionTransaction` objects of a simulated subscription. */
import type { PastTransaction, SubscriptionState } from '../machine/world.js';

export interface SubscriptionTransactionResource {
  object: 'subscription_transaction';
  id: string;
  purchased_at: number;
  product_store_identifier: string;
  expiration_date: number | null;
  /**
   * When the transaction's access ended or ends: its expiration, or the refund's instant for a
   * refunded transaction (the official object has no refund field; a refund ends the period then).
   */
  effective_expiration_date: number | null;
}

const pastResource = (t: PastTransaction): SubscriptionTransactionResource => ({
  object: 'subscription_transaction',
  id: t.id,
  purchased_at: t.purchased_at,
  product_store_identifier: t.product_id,
  expiration_date: t.expires_at,
  effective_expiration_date: t.refunded_at ?? t.expires_at,
});

/**
 * Given a subscription, returns every transaction of it, oldest first: the initial purchase (or
 * trial start), one per renewal, trial conversion, recovery and resume, then the current one. Pure.
 *
 * @example
 * subscriptionTransactions(sub).map((t) => t.id); // [original_transaction_id, …, transaction_id]
 */
export function subscriptionTransactions(sub: SubscriptionState): SubscriptionTransactionResource[] {
  const out: SubscriptionTransactionResource[] = [];
  for (let t = sub.past_transactions; t !== null; t = t.previous) out.push(pastResource(t));
  out.reverse();
  out.push({
    object: 'subscription_transaction',
    id: sub.transaction_id,
    purchased_at: sub.period_start,
    product_store_identifier: sub.product_id,
    expiration_date: sub.period_end,
    effective_expiration_date: sub.refund?.at ?? sub.expired_at ?? sub.period_end,
  });
  return out;
}

