/** Turning planned grants into lots of a customer's ledger. */
import { balanceOf } from './balancesOf.js';
import type { PlannedGrant } from './grantsFor.js';
import type { CreditLot, Ledger, LedgerEntry } from './ledger.js';
import { BALANCE_MAX } from './virtualCurrency.js';

/** A ledger after grants and what was granted. */
export interface ApplyGrantsResult {
  ledger: Ledger;
  /** One `grant` entry per lot created, with the amount actually granted. */
  entries: LedgerEntry[];
}

/**
 * Given a ledger and planned grants, returns the ledger with one new lot per grant and a `grant`
 * entry for each. A grant never lifts a balance above `BALANCE_MAX`: it is cut to what fits, and a
 * grant that expires at or before its own time, or that nothing of fits, adds nothing. Pure.
 *
 * @example
 * const { ledger: next, entries } = applyGrants(emptyLedger(), grantsForPurchase(currencies, purchase));
 */
export function applyGrants(ledger: Ledger, grants: readonly PlannedGrant[]): ApplyGrantsResult {
  let current = ledger;
  const entries: LedgerEntry[] = [];
  for (const grant of grants) {
    if (grant.expires_at !== null && grant.expires_at <= grant.at) continue;
    const room = BALANCE_MAX - balanceOf(current, grant.currency, grant.at);
    const amount = Math.min(grant.amount, Math.max(0, room));
    if (amount <= 0) continue;
    const lot: CreditLot = {
      lot_id: `lot_${current.next_lot}`,
      currency: grant.currency,
      remaining: amount,
      granted_at: grant.at,
      expires_at: grant.expires_at,
      source: grant.source,
    };
    current = { lots: [...current.lots, lot], next_lot: current.next_lot + 1 };
    entries.push({ kind: 'grant', currency: grant.currency, amount, lot_id: lot.lot_id, at: grant.at });
  }
  return { ledger: current, entries };
}
