/**
 * Revenue at risk: a subscriber's current subscription expressed as a monthly value in USD, so
 * subscribers on weekly, monthly and yearly plans can be summed and ranked.
 */
import type { Subscriber } from '../subscriber/subscriber.js';

/** A month, for normalizing: a Gregorian year (365.25 days) over 12. */
export const MONTH_MS = 30.4375 * 86_400_000;

/**
 * The billing periods stores sell, in months of `MONTH_MS`: a measured period is read as the
 * nearest of them (by ratio), so a 28-day February and a 31-day March both count as one month.
 */
export const BILLING_PERIOD_MONTHS = [7 / 30.4375, 1, 2, 3, 6, 12] as const;

/**
 * Given a period length in ms (or null when unknown), returns how many months it is: the nearest
 * standard billing period by ratio, or 1 when unknown. Pure.
 *
 * @example
 * periodMonths(365 * DAY_MS); // 12
 * periodMonths(28 * DAY_MS); // 1
 */
export function periodMonths(periodMs: number | null): number {
  if (periodMs === null || !(periodMs > 0)) return 1;
  const measured = periodMs / MONTH_MS;
  let best: number = BILLING_PERIOD_MONTHS[0];
  let bestDistance = Infinity;
  for (const months of BILLING_PERIOD_MONTHS) {
    const distance = Math.abs(Math.log(measured / months));
    if (distance < bestDistance) {
      best = months;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Given a subscriber, returns the monthly value in USD of its current subscription: the latest
 * charged price over its period in months (`periodMonths`). 0 when nothing was ever charged (a
 * trial with no known price). A churned, refunded or cancelled subscriber keeps the value it had:
 * that is the revenue at risk (or lost). Pure.
 *
 * @example
 * monthlyValueUsd(yearlySubscriberAt99_99); // 8.3325
 */
export function monthlyValueUsd(subscriber: Subscriber): number {
  const revenue = subscriber.revenue ?? null;
  if (revenue === null) return 0;
  return revenue.price / periodMonths(revenue.period_ms);
}

/**
 * Given a subscriber, returns `monthlyValueUsd` in whole cents (rounded half up): what stores keep
 * and sum, so totals are exact integers whatever the order of summation. Pure.
 *
 * @example
 * monthlyValueCents(yearlySubscriberAt99_99); // 833
 */
export function monthlyValueCents(subscriber: Subscriber): number {
  return Math.round(monthlyValueUsd(subscriber) * 100);
}
