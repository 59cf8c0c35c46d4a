/** Cycle-end expiry: dropping lots whose expiry has come. */
import type { CreditLot, Ledger, LedgerEntry } from './ledger.js';

/** A ledger after expiry and what was removed. */
export interface ExpireResult {
  ledger: Ledger;
  /** One `expire` entry per lot that still held credits, dated at the lot's expiry, in expiry order. */
  entries: LedgerEntry[];
}

const hasExpired = (lot: CreditLot, now: number): boolean => lot.expires_at !== null && lot.expires_at <= now;

const expiryEntry = (lot: CreditLot, now: number): LedgerEntry => ({ kind: 'expire', currency: lot.currency, amount: -lot.remaining, lot_id: lot.lot_id, at: lot.expires_at ?? now });

/**
 * Given a ledger and an instant, returns the ledger without the lots whose `expires_at` ≤ now, with
 * one `expire` entry (negative amount) for each of them that still held credits. Pure.
 *
 * @example
 * const { ledger: next, entries } = expireCredits(ledger, cycleEnd);
 * entries; // [{ kind: 'expire', currency: 'CRD', amount: -40, lot_id: 'lot_1', at: cycleEnd }]
 */
export function expireCredits(ledger: Ledger, now: number): ExpireResult {
  const lots = ledger.lots;
  let expired = 0;
  let last = -1;
  for (let i = 0; i < lots.length; i++) {
    if (!hasExpired(lots[i]!, now)) continue;
    expired += 1;
    last = i;
  }
  if (expired === 0) return { ledger, entries: [] };
  const next: Ledger = { lots: expired === lots.length ? [] : lots.filter((lot) => !hasExpired(lot, now)), next_lot: ledger.next_lot };
  if (expired === 1) {
    // The common case (one cycle's lot): literals, not filter/sort/map copies, and `[].push` would
    // grow a list to 16 slots (see withLot in applyGrants on literals and the young generation).
    const lot = lots[last]!;
    return { ledger: next, entries: lot.remaining > 0 ? [expiryEntry(lot, now)] : [] };
  }
  // In expiry order; lots of one expiry stay in ledger order (a stable sort).
  const gone = lots.filter((lot) => hasExpired(lot, now) && lot.remaining > 0).sort((a, b) => (a.expires_at ?? 0) - (b.expires_at ?? 0));
  return { ledger: next, entries: gone.map((lot) => expiryEntry(lot, now)) };
}
