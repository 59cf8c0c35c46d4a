/**
 * The copies a transition makes of what it changes: a customer (when an operation first touches it)
 * and its subscriptions. The world the transition started from keeps the originals.
 */
import type { CustomerState, SubscriptionState } from './world.js';

/**
 * A writable copy of a subscription: one literal with every field, in the order `newSubscription`
 * writes them, so every subscription has one compact shape (a spread copy of an object built with a
 * spread inside kept part of its fields out of line; a month advance copies 100 k of them). A new
 * field fails to compile here until it is copied.
 *
 * @example
 * const writable = copySubscription(sub); writable.period_end = later; // sub unchanged
 */
export const copySubscription = (s: SubscriptionState): SubscriptionState => ({
  id: s.id,
  customer_id: s.customer_id,
  product_id: s.product_id,
  status: s.status,
  period_type: s.period_type,
  original_transaction_id: s.original_transaction_id,
  transaction_id: s.transaction_id,
  original_purchased_at: s.original_purchased_at,
  period_start: s.period_start,
  period_end: s.period_end,
  cycle_anchor: s.cycle_anchor,
  cycle_index: s.cycle_index,
  auto_renew: s.auto_renew,
  renewal_number: s.renewal_number,
  grace_expires_at: s.grace_expires_at,
  failed_at: s.failed_at,
  pending_product_id: s.pending_product_id,
  fail_next_renewal: s.fail_next_renewal,
  presented_offering_id: s.presented_offering_id,
  country_code: s.country_code,
  seq: s.seq,
  expired_at: s.expired_at,
  cancel_reason: s.cancel_reason,
  unsubscribed_at: s.unsubscribed_at,
  environment: s.environment,
  store: s.store,
  schedule: s.schedule,
  auto_resume_at: s.auto_resume_at,
  refund: s.refund,
  past_transactions: s.past_transactions,
});

/**
 * A writable copy of a customer: its own subscription copies and purchase list; the ledger (immutable)
 * and the aliases are shared. Literals, not a spread and `map`: a literal's allocation site learns
 * that its objects outlive the young generation (every copy of a month advance survives it) and V8
 * then allocates them there directly; a spread or `map` copy is always made young and copied by every
 * scavenge until it is promoted.
 *
 * @example
 * const copy = copyCustomer(stored); copy.subscriptions[0] !== stored.subscriptions[0]; // true
 */
export const copyCustomer = (c: CustomerState): CustomerState => {
  const subs = c.subscriptions;
  const subscriptions = subs.length === 1 ? [copySubscription(subs[0]!)] : subs.map(copySubscription);
  const purchases = c.purchases.length === 0 ? [] : c.purchases.map((p) => ({ ...p }));
  // Absent, not undefined, when the customer has none (its events build the list then).
  if (c.aliases === undefined) {
    return { id: c.id, project_id: c.project_id, seq: c.seq, first_seen_at: c.first_seen_at, last_seen_at: c.last_seen_at, ledger: c.ledger, subscriptions, purchases };
  }
  return {
    id: c.id,
    project_id: c.project_id,
    seq: c.seq,
    first_seen_at: c.first_seen_at,
    last_seen_at: c.last_seen_at,
    ledger: c.ledger,
    subscriptions,
    purchases,
    aliases: c.aliases,
  };
};
