/** Turning planned grants into lots of a customer's ledger. */
import type { PlannedGrant } from './grantsFor.js';
import { isLive, type CreditLot, type Ledger, type LedgerEntry } from './ledger.js';
import { BALANCE_MAX } from './virtualCurrency.js';

/** A ledger after grants and what was granted. */
export interface ApplyGrantsResult {
  ledger: Ledger;
  /** One `grant` entry per lot created, with the amount actually granted. */
  entries: LedgerEntry[];
}

/** A currency's balance in these lots at an instant (`balanceOf` of lots not yet in a ledger). */
function balanceIn(lots: readonly CreditLot[], currency: string, now: number): number {
  let total = 0;
  for (let i = 0; i < lots.length; i++) {
    const lot = lots[i]!;
    if (lot.currency === currency && isLive(lot, now)) total += lot.remaining;
  }
  return total;
}

/**
 * The lots with one more at the end. Short lists are array literals, not spreads: a literal's
 * allocation site learns when what it makes outlives the young generation (a simulator keeps every
 * new ledger) and the engine then allocates it there directly; a copy made by a builtin is always
 * made young and copied by the collector until it is promoted.
 */
function withLot(lots: readonly CreditLot[], lot: CreditLot): CreditLot[] {
  switch (lots.length) {
    case 0:
      return [lot];
    case 1:
      return [lots[0]!, lot];
    case 2:
      return [lots[0]!, lots[1]!, lot];
    default: {
      const out = lots.slice();
      out.push(lot);
      return out;
    }
  }
}

/**
 * Given a ledger and planned grants, returns the ledger with one new lot per grant and a `grant`
 * entry for each. A grant never lifts a balance above `BALANCE_MAX`: it is cut to what fits, and a
 * grant that expires at or before its own time, or that nothing of fits, adds nothing (the ledger
 * is then returned as it was). Pure.
 *
 * @example
 * const { ledger: next, entries } = applyGrants(emptyLedger(), grantsForPurchase(currencies, purchase));
 */
export function applyGrants(ledger: Ledger, grants: readonly PlannedGrant[]): ApplyGrantsResult {
  let lots = ledger.lots;
  let nextLot = ledger.next_lot;
  // A literal for the first entry (most purchases grant one currency): `[].push` grows to 16 slots.
  let entries: LedgerEntry[] | null = null;
  for (let g = 0; g < grants.length; g++) {
    const grant = grants[g]!;
    if (grant.expires_at !== null && grant.expires_at <= grant.at) continue;
    const room = BALANCE_MAX - balanceIn(lots, grant.currency, grant.at);
    const amount = Math.min(grant.amount, Math.max(0, room));
    if (amount <= 0) continue;
    const lot: CreditLot = {
      lot_id: `lot_${nextLot}`,
      currency: grant.currency,
      remaining: amount,
      granted_at: grant.at,
      expires_at: grant.expires_at,
      source: grant.source,
    };
    lots = withLot(lots, lot);
    nextLot += 1;
    const entry: LedgerEntry = { kind: 'grant', currency: grant.currency, amount, lot_id: lot.lot_id, at: grant.at };
    if (entries === null) entries = [entry];
    else entries.push(entry);
  }
  return { ledger: lots === ledger.lots ? ledger : { lots, next_lot: nextLot }, entries: entries ?? [] };
}
