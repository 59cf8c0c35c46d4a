/** Reading balances from a ledger. */
import { isLive, type Balances, type Ledger } from './ledger.js';

/**
 * Given a ledger and an instant, returns the balance of each currency that has unexpired credits
 * (expired lots are excluded even if `expireCredits` has not dropped them yet). Pure.
 *
 * @example
 * balancesOf(ledger, now); // { CRD: 150 }
 */
export function balancesOf(ledger: Ledger, now: number): Balances {
  // No prototype: a currency code such as "toString" or "constructor" must read as an absent balance.
  const balances: Balances = Object.create(null) as Balances;
  for (const lot of ledger.lots) {
    if (!isLive(lot, now)) continue;
    balances[lot.currency] = (balances[lot.currency] ?? 0) + lot.remaining;
  }
  return balances;
}

/**
 * Given a ledger, a currency and an instant, returns that currency's balance (0 when it has none). Pure.
 *
 * @example
 * balanceOf(emptyLedger(), 'CRD', now); // 0
 */
export function balanceOf(ledger: Ledger, currency: string, now: number): number {
  let total = 0;
  for (const lot of ledger.lots) if (lot.currency === currency && isLive(lot, now)) total += lot.remaining;
  return total;
}
