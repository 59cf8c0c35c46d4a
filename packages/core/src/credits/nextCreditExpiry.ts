/** When a ledger next changes by itself: its earliest lot expiry. */
import type { Ledger } from './ledger.js';

/**
 * Given a ledger, returns the earliest `expires_at` of its lots, or null when no lot expires. Before
 * that instant `expireCredits` changes nothing; at it, at least one lot goes. Pure.
 *
 * @example
 * nextCreditExpiry(ledger); // 1_769_904_000_000
 */
export function nextCreditExpiry(ledger: Ledger): number | null {
  let next: number | null = null;
  for (const lot of ledger.lots) if (lot.expires_at !== null && (next === null || lot.expires_at < next)) next = lot.expires_at;
  return next;
}
