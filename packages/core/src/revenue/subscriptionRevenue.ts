/**
 * What a subscriber's current subscription is worth: the price, currency and store of its latest
 * charge (else of the latest lifecycle event with a price), and the length of the period that price buys.
 */
import type { HandledEvent } from '../events/webhookSchema.js';

/**
 * The money side of the current subscription, as the billing service reported it on its latest
 * charge with a positive `price` (INITIAL_PURCHASE, RENEWAL), else on the latest other lifecycle
 * event with one (see `revenueOf`, `isLaterRevenueKey`). `price` is in USD (RevenueCat
 * converts); `period_ms` is `expiration_at_ms − purchased_at_ms` of that event, null when the event
 * lacks either.
 */
export interface SubscriptionRevenue {
  /** USD, > 0. */
  price: number;
  price_in_purchased_currency: number | null;
  /** ISO 4217 code of `price_in_purchased_currency`. */
  currency: string | null;
  /** Deprecated by RevenueCat, kept for display. */
  takehome_percentage: number | null;
  store: string | null;
  period_ms: number | null;
}

/**
 * The largest price (USD) taken as a real price. A larger one (no store sells a period for more)
 * is ignored rather than refused, so one odd event cannot lose a webhook, and sums over a million
 * subscribers stay exact integers of cents.
 */
export const MAX_PRICE_USD = 1_000_000;

/** The fields of an event its revenue is read from. */
export type ChargeFields = Pick<
  HandledEvent,
  'price' | 'purchased_at_ms' | 'expiration_at_ms' | 'price_in_purchased_currency' | 'currency' | 'takehome_percentage' | 'store'
>;

/**
 * `Object.is` for two finite numbers or nulls, written out: the builtin was a call per comparison
 * on the reducer's path (two per priced event), this compiles to a compare.
 */
const sameNumber = (a: number | null, b: number | null): boolean => a === b && (a !== 0 || 1 / a === 1 / (b as number));

const finiteOrNull = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * Given a handled event (and the revenue the record holds, if any), returns what the event says about
 * the subscription's revenue, or null when it charged nothing: no `price`, 0 (a trial), negative (a
 * refund) or above `MAX_PRICE_USD`. When that equals `held` field by field, returns `held` itself.
 * The caller applies it only for lifecycle events (a top-up's price is not the subscription's). Pure.
 *
 * @example
 * revenueOf({ type: 'RENEWAL', id: 'e', app_user_id: 'u', event_timestamp_ms: t, price: 9.99,
 *   purchased_at_ms: t, expiration_at_ms: t + 30 * DAY_MS, currency: 'EUR', price_in_purchased_currency: 9.49 });
 * // { price: 9.99, currency: 'EUR', price_in_purchased_currency: 9.49, period_ms: 2_592_000_000, … }
 */
export function revenueOf(event: ChargeFields, held: SubscriptionRevenue | null = null): SubscriptionRevenue | null {
  return revenueFrom(
    event.price,
    event.purchased_at_ms,
    event.expiration_at_ms,
    event.price_in_purchased_currency,
    event.currency,
    event.takehome_percentage,
    event.store,
    held,
  );
}

/**
 * `revenueOf` of a charge's fields given one by one: the reducer reads them from the event in its
 * type's own case and passes them here, so that no object is built per event to carry them (see
 * `applyCharge`). Pure.
 *
 * @example
 * revenueFrom(9.99, t, t + 30 * DAY_MS, 9.49, 'EUR', 0.7, 'APP_STORE', null)?.period_ms; // 2_592_000_000
 */
export function revenueFrom(
  price: number | null | undefined,
  start: number | null | undefined,
  end: number | null | undefined,
  priceInCurrency: number | null | undefined,
  currencyCode: string | null | undefined,
  takehomePercentage: number | null | undefined,
  storeName: string | null | undefined,
  held: SubscriptionRevenue | null,
): SubscriptionRevenue | null {
  if (typeof price !== 'number' || !(price > 0) || price > MAX_PRICE_USD) return null;
  const inCurrency = finiteOrNull(priceInCurrency);
  const currency = currencyCode ?? null;
  const takehome = finiteOrNull(takehomePercentage);
  const store = storeName ?? null;
  const periodMs = typeof start === 'number' && typeof end === 'number' && end > start ? end - start : null;
  // Each renewal of a subscription nearly always says what the last one did: the record keeps the
  // object it holds rather than a new equal one (a fold of a long history allocates none per renewal).
  // `sameNumber` where a number may be 0, so that -0 is not taken for 0.
  if (
    held !== null &&
    held.price === price &&
    sameNumber(held.price_in_purchased_currency, inCurrency) &&
    held.currency === currency &&
    sameNumber(held.takehome_percentage, takehome) &&
    held.store === store &&
    held.period_ms === periodMs
  ) {
    return held;
  }
  return { price, price_in_purchased_currency: inCurrency, currency, takehome_percentage: takehome, store, period_ms: periodMs };
}
