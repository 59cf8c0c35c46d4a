/** Deleting a currency from a customer's ledger. */
import type { CreditLot, Ledger } from './ledger.js';

/** A ledger without one currency, and the lots that were removed. */
export interface RemoveCurrencyResult {
  ledger: Ledger;
  removed: CreditLot[];
}

/**
 * Given a ledger and a currency code, returns the ledger without any lot of that currency (every
 * other lot kept, in order; the lot counter unchanged, so ids are never reused) and the removed lots.
 * The same ledger object comes back when it held none. Pure.
 *
 * @example
 * const { ledger: next, removed } = removeCurrency(ledger, 'GEM');
 */
export function removeCurrency(ledger: Ledger, code: string): RemoveCurrencyResult {
  const removed = ledger.lots.filter((lot) => lot.currency === code);
  if (removed.length === 0) return { ledger, removed };
  return { ledger: { ...ledger, lots: ledger.lots.filter((lot) => lot.currency !== code) }, removed };
}
