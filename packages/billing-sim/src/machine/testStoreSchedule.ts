/**
 * The Test Store's renewal schedule (RevenueCat's test environment, what a `test_` key buys in): a
 * subscription renews every few minutes instead of every period, 5 minutes per month of its period
 * (a week or a month: 5 minutes, two months: 10, a year: 60; never under 5), its free trial likewise,
 * and at most 5 times: the 5th renewal turns auto-renew off (CANCELLATION), so it expires at the end
 * of that period and its entitlements end.
 */
import type { Duration } from '../internal/duration.js';

/** How many times a Test Store subscription renews before it cancels. */
export const TEST_STORE_MAX_RENEWALS = 5;

const MINUTE_MS = 60_000;
const DAYS_PER_MONTH = 30;
const MS_PER_DAY = 86_400_000;

/**
 * Given a period (or trial), returns its length on the Test Store's schedule.
 *
 * @example
 * testStorePeriod({ years: 1, months: 0, days: 0, ms: 0 }); // { years: 0, months: 0, days: 0, ms: 3_600_000 }
 */
export function testStorePeriod(period: Duration): Duration {
  const months = period.years * 12 + period.months + (period.days + period.ms / MS_PER_DAY) / DAYS_PER_MONTH;
  const minutes = Math.max(5, Math.round(5 * months));
  return { years: 0, months: 0, days: 0, ms: minutes * MINUTE_MS };
}
