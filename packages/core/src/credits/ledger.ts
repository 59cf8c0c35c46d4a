/**
 * A customer's credits as a ledger of lots. A lot is credits granted or deposited together, with one
 * expiry (or none); a balance is the sum of the unexpired lots of a currency. Every change is
 * described by ledger entries, so adapters can emit events and keep an audit trail.
 */

/** Where a lot came from. */
export type LotSource = 'trial' | 'purchase' | 'renewal' | 'top_up' | 'deposit' | 'set';

/** Credits of one currency that share an expiry. */
export interface CreditLot {
  /** Deterministic id: `lot_<n>` from the ledger's counter. */
  lot_id: string;
  currency: string;
  /** Credits left in the lot (> 0 while the lot is kept). */
  remaining: number;
  granted_at: number;
  /** Expiry (epoch ms); the lot counts until strictly before this instant. null: never expires. */
  expires_at: number | null;
  source: LotSource;
}

/** One customer's credits. Plain data: safe to store, copy and compare. */
export interface Ledger {
  lots: CreditLot[];
  /** The number the next lot id is made from. */
  next_lot: number;
}

/** The kinds of change a ledger records. */
export type LedgerEntryKind = 'grant' | 'spend' | 'deposit' | 'expire' | 'set';

/** One change to a balance. `amount` is signed: the change of the balance (grants > 0, spends < 0). */
export interface LedgerEntry {
  kind: LedgerEntryKind;
  currency: string;
  amount: number;
  lot_id?: string;
  at: number;
  reference?: string;
}

/** Balances by currency code. */
export type Balances = Record<string, number>;

/**
 * Returns a ledger with no credits. Pure.
 *
 * @example
 * const ledger = emptyLedger(); // { lots: [], next_lot: 1 }
 */
export function emptyLedger(): Ledger {
  return { lots: [], next_lot: 1 };
}

/**
 * Given a lot and an instant, returns whether the lot still counts at that instant. Pure.
 *
 * @example
 * isLive({ ...lot, expires_at: 100 }, 100); // false
 */
export function isLive(lot: CreditLot, now: number): boolean {
  return lot.expires_at === null || lot.expires_at > now;
}
