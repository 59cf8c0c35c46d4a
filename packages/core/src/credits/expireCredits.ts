/** Cycle-end expiry: dropping lots whose expiry has come. */
import type { CreditLot, Ledger, LedgerEntry } from './ledger.js';

/** A ledger after expiry and what was removed. */
export interface ExpireResult {
  ledger: Ledger;
  /** One `expire` entry per lot that still held credits, dated at the lot's expiry, in expiry order. */
  entries: LedgerEntry[];
}

const hasExpired = (lot: CreditLot, now: number): boolean => lot.expires_at !== null && lot.expires_at <= now;

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
  for (let i = 0; i < lots.length; i++) if (hasExpired(lots[i]!, now)) expired += 1;
  if (expired === 0) return { ledger, entries: [] };
  // Loops into literals, not filter/sort/map: see withLot in applyGrants on literals and the young generation.
  const kept: CreditLot[] = [];
  const gone: CreditLot[] = [];
  for (let i = 0; i < lots.length; i++) {
    const lot = lots[i]!;
    if (!hasExpired(lot, now)) kept.push(lot);
    else if (lot.remaining > 0) gone.push(lot);
  }
  // In expiry order; lots of one expiry stay in ledger order (a stable sort).
  if (gone.length > 1) gone.sort((a, b) => (a.expires_at ?? 0) - (b.expires_at ?? 0));
  const entries: LedgerEntry[] = [];
  for (let i = 0; i < gone.length; i++) {
    const lot = gone[i]!;
    entries.push({ kind: 'expire', currency: lot.currency, amount: -lot.remaining, lot_id: lot.lot_id, at: lot.expires_at ?? now });
  }
  return { ledger: { lots: kept, next_lot: ledger.next_lot }, entries };
}
