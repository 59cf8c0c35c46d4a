/**
 * From API v2 objects to webhook events in RevenueCat's real format, so a backfilled subscriber is
 * built by the very reducer webhooks go through (as the export import does), and later webhooks
 * fold on top of it. API v2 gives a snapshot (a subscription's status now and its transactions),
 * not the event history: what it cannot tell is listed in docs/import.md.
 *
 * Every event id is derived from the API objects (`backfill:<subscription id>:<transaction id>:<kind>`,
 * `backfill:purchase:<purchase id>:<kind>`; hashed past the 256-byte id limit): a second backfill
 * of the same data yields the same ids, and the store drops them as duplicates. Pure.
 */
import { createHash } from 'node:crypto';
import { MAX_ID_BYTES } from '@tenure/core';
import type { ApiPurchase, ApiSubscription, ApiTransaction, CustomerHistory } from './apiObjects.js';

/** A stable event id within the core's limit (a digest of the long ones). */
function eventId(parts: readonly string[]): string {
  const id = `backfill:${parts.join(':')}`;
  return Buffer.byteLength(id) <= MAX_ID_BYTES ? id : `backfill:sha256:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}

/** A webhook event body (`event` of `{ api_version, event }`), before `parseWebhook` checks it. */
export type DerivedEvent = Record<string, unknown> & { type: string; id: string; app_user_id: string; event_timestamp_ms: number };

const cents = (n: number) => Math.round(n * 100) / 100;
// A share of amounts rounded to cents, so to whole percents (16.98 / 19.98 is the 85 % take-home).
const share = (part: number, gross: number) => (gross > 0 ? Math.round((part / gross) * 100) / 100 : 0);
const aliasesOf = (id: string, original: string) => (id === original ? [id] : [original, id].sort());

/** One period of a subscription: a transaction and where it ended (or ends). */
interface Period {
  tx: ApiTransaction;
  start: number;
  end: number;
}

/** The subscription's periods, oldest first; the current period when the API lists no transaction. */
function periodsOf(sub: ApiSubscription, transactions: readonly ApiTransaction[]): Period[] {
  const txs = transactions.length > 0 ? [...transactions] : [{ id: sub.store_subscription_identifier, purchased_at: sub.current_period_starts_at, expiration_date: sub.current_period_ends_at }];
  txs.sort((a, b) => a.purchased_at - b.purchased_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return txs.map((tx, i) => {
    const next = txs[i + 1];
    const end = tx.expiration_date ?? next?.purchased_at ?? (i === txs.length - 1 ? sub.current_period_ends_at : null) ?? tx.purchased_at;
    return { tx, start: tx.purchased_at, end: Math.max(end, tx.purchased_at) };
  });
}

/**
 * Whether the first period was a free trial: trialing now; an only period that brought no revenue
 * (a trial that ended without converting, or was taken back); or shorter than half the next.
 */
function startedWithTrial(sub: ApiSubscription, periods: readonly Period[]): boolean {
  const [first, second] = periods;
  if (first === undefined) return false;
  if (second === undefined) return sub.status === 'trialing' || sub.total_revenue_in_usd.gross === 0;
  return (first.end - first.start) * 2 < second.end - second.start;
}

/**
 * Given a subscription and its transactions, returns its events: INITIAL_PURCHASE for the first
 * transaction (`TRIAL` when it was a trial), RENEWAL for each later one, CANCELLATION `UNSUBSCRIBE`
 * when auto-renew is off, BILLING_ISSUE with CANCELLATION `BILLING_ERROR` in a grace period or
 * billing retry, EXPIRATION when it is paused (`SUBSCRIPTION_PAUSED`) or expired: `CUSTOMER_SUPPORT`
 * when it ended before its paid period did (a refund), `BILLING_ERROR` after a grace period (with
 * the BILLING_ISSUE it implies), `UNSUBSCRIBE` after an opt-out, else `UNKNOWN`. Pure.
 *
 * @example
 * subscriptionEvents(sub, transactions).map((e) => e.type); // ['INITIAL_PURCHASE', 'RENEWAL', 'CANCELLATION']
 */
export function subscriptionEvents(sub: ApiSubscription, transactions: readonly ApiTransaction[]): DerivedEvent[] {
  const periods = periodsOf(sub, transactions);
  const trial = startedWithTrial(sub, periods);
  const paid = periods.length - (trial ? 1 : 0);
  const revenue = sub.total_revenue_in_usd;
  // The API gives the total: each paid period is taken to cost the same.
  const price = paid > 0 ? cents(revenue.gross / paid) : 0;
  const originalTx = periods[0]?.tx.id ?? sub.store_subscription_identifier;

  const base = (p: Period, index: number, type: string, kind: string, at: number): DerivedEvent => {
    const isTrial = trial && index === 0;
    const amount = isTrial ? 0 : price;
    return {
      type,
      id: eventId([sub.id, p.tx.id, kind]),
      event_timestamp_ms: at,
      app_user_id: sub.customer_id,
      original_app_user_id: sub.original_customer_id,
      aliases: aliasesOf(sub.customer_id, sub.original_customer_id),
      product_id: p.tx.product_store_identifier ?? sub.product_id ?? 'unknown',
      period_type: isTrial ? 'TRIAL' : 'NORMAL',
      purchased_at_ms: p.start,
      expiration_at_ms: p.end,
      store: sub.store.toUpperCase(),
      environment: sub.environment.toUpperCase(),
      transaction_id: p.tx.id,
      original_transaction_id: originalTx,
      presented_offering_id: sub.presented_offering_id,
      price: amount,
      currency: 'USD',
      price_in_purchased_currency: amount,
      tax_percentage: share(revenue.tax, revenue.gross),
      commission_percentage: share(revenue.commission, revenue.gross),
      ...(revenue.gross > 0 ? { takehome_percentage: share(revenue.proceeds, revenue.gross) } : {}),
      ...(sub.country == null ? {} : { country_code: sub.country }),
      renewal_number: index + 1,
    };
  };

  const out: DerivedEvent[] = periods.map((p, i) =>
    i === 0 ? base(p, i, 'INITIAL_PURCHASE', 'INITIAL_PURCHASE', p.start) : { ...base(p, i, 'RENEWAL', 'RENEWAL', p.start), is_trial_conversion: trial && i === 1 },
  );
  const index = periods.length - 1;
  const latest = periods[index];
  if (latest === undefined) return out;
  const optedOut = sub.auto_renewal_status === 'will_not_renew';
  // When the opt-out happened is not in the API: just after the latest period began.
  if (optedOut) out.push({ ...base(latest, index, 'CANCELLATION', 'CANCELLATION:UNSUBSCRIBE', latest.start + 1), cancel_reason: 'UNSUBSCRIBE' });
  if (sub.status === 'in_grace_period' || sub.status === 'in_billing_retry') {
    // The renewal failed when the period ended; a grace end later than that is the grace period.
    const failedAt = latest.tx.expiration_date ?? latest.end;
    const graceEnd = latest.tx.effective_expiration_date ?? null;
    const grace = sub.status === 'in_grace_period' && graceEnd !== null && graceEnd > failedAt ? graceEnd : null;
    out.push({ ...base(latest, index, 'BILLING_ISSUE', 'BILLING_ISSUE', failedAt), grace_period_expiration_at_ms: grace });
    out.push({ ...base(latest, index, 'CANCELLATION', 'CANCELLATION:BILLING_ERROR', failedAt), cancel_reason: 'BILLING_ERROR' });
  }
  if (sub.status === 'paused') out.push({ ...base(latest, index, 'EXPIRATION', 'EXPIRATION', latest.end), expiration_reason: 'SUBSCRIPTION_PAUSED' });
  if (sub.status === 'expired') {
    const paidEnd = latest.tx.expiration_date ?? latest.end;
    const end = Math.max(latest.tx.effective_expiration_date ?? sub.ends_at ?? paidEnd, latest.start);
    // The effective end says how it ended: after the paid period, a grace period ran out (a billing
    // issue at the period's end); before it, the period was taken back (a refund or a revocation).
    const graceRanOut = end > paidEnd;
    const cutShort = end < paidEnd;
    if (graceRanOut) {
      out.push({ ...base(latest, index, 'BILLING_ISSUE', 'BILLING_ISSUE', paidEnd), grace_period_expiration_at_ms: end });
      out.push({ ...base(latest, index, 'CANCELLATION', 'CANCELLATION:BILLING_ERROR', paidEnd), cancel_reason: 'BILLING_ERROR' });
    }
    const reason = cutShort ? 'CUSTOMER_SUPPORT' : graceRanOut ? 'BILLING_ERROR' : optedOut ? 'UNSUBSCRIBE' : 'UNKNOWN';
    out.push({ ...base(latest, index, 'EXPIRATION', 'EXPIRATION', end), expiration_reason: reason });
  }
  return out;
}

/**
 * Given a one-time purchase, returns its NON_RENEWING_PURCHASE and, when refunded, the
 * CANCELLATION `CUSTOMER_SUPPORT` the billing service sends for it (the refund's time is not in the
 * API: just after the purchase). Pure.
 *
 * @example
 * purchaseEvents(purchase).map((e) => e.type); // ['NON_RENEWING_PURCHASE']
 */
export function purchaseEvents(p: ApiPurchase): DerivedEvent[] {
  const revenue = p.revenue_in_usd;
  const base = (type: string, at: number, price: number): DerivedEvent => ({
    type,
    id: eventId(['purchase', p.id, type === 'CANCELLATION' ? 'CANCELLATION:CUSTOMER_SUPPORT' : type]),
    event_timestamp_ms: at,
    app_user_id: p.customer_id,
    original_app_user_id: p.original_customer_id,
    aliases: aliasesOf(p.customer_id, p.original_customer_id),
    product_id: p.product_id,
    period_type: 'NORMAL',
    purchased_at_ms: p.purchased_at,
    expiration_at_ms: null,
    store: p.store.toUpperCase(),
    environment: p.environment.toUpperCase(),
    transaction_id: p.store_purchase_identifier,
    original_transaction_id: p.store_purchase_identifier,
    presented_offering_id: p.presented_offering_id,
    price,
    currency: 'USD',
    price_in_purchased_currency: price,
    ...(p.country == null ? {} : { country_code: p.country }),
  });
  const purchase = base('NON_RENEWING_PURCHASE', p.purchased_at, cents(revenue.gross));
  return p.status === 'refunded' ? [purchase, { ...base('CANCELLATION', p.purchased_at + 1, 0), cancel_reason: 'CUSTOMER_SUPPORT' }] : [purchase];
}

/**
 * Given everything read about one customer, returns the events of its subscriptions and purchases.
 * Pure.
 *
 * @example
 * customerEvents({ customer, subscriptions: [{ subscription, transactions }], purchases: [] }).length; // 2
 */
export function customerEvents(history: CustomerHistory): DerivedEvent[] {
  return [...history.subscriptions.flatMap((s) => subscriptionEvents(s.subscription, s.transactions)), ...history.purchases.flatMap(purchaseEvents)];
}
