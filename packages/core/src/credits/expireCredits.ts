/** Cycle-end expiry: dropping lots whose expiry has come. */
import type { Ledger, LedgerEntry } from './ledger.js';

/** A ledger after expiry and what was removed. */
export interface ExpireResult {
  ledger: Ledger;
  /** One `expire` entry per lot that still held credits, dated at the lot's expiry, in expiry order. */
  entries: LedgerEntry[];
}

/**
 * Given a ledger and an instant, returns the ledger without the lots whose `expires_at` ≤ now, with
 * one `expire` entry (negative amount) for each of them that still held credits. Pure.
 *
 * @example
 * const { ledger: next, entries } = expireCredits(ledger, cycleEnd);
 * entries; // [{ kind: 'expire', currency: 'CRD', amount: -40, lot_id: 'lot_1', at: cycleEnd }]
 */
export function expireCredits(ledger: Ledger, now: number): ExpireResult {
  const kept = ledger.lots.filter((lot) => lot.expires_at === null || lot.expires_at > now);
  if (kept.length === ledger.lots.length) return { ledger, entries: [] };
  const entries: LedgerEntry[] = ledger.lots
    .filter((lot) => lot.expires_at !== null && lot.expires_at <= now && lot.remaining > 0)
    .sort((a, b) => (a.expires_at ?? 0) - (b.expires_at ?? 0))
    .map((lot) => ({
      kind: 'expire',
      currency: lot.currency,
      amount: -lot.remaining,
      lot_id: lot.lot_id,
      at: lot.expires_at ?? now,
    }));
  return { ledger: { ...ledger, lots: kept }, entries };
}
