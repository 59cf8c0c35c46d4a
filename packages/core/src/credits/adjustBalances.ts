/**
 * Atomic multi-currency adjustments of a customer's balances: all or nothing, never below 0 nor
 * above `BALANCE_MAX`. Spends take the soonest-expiring credits first, then non-expiring ones oldest
 * first; deposits add a non-expiring lot.
 */
import { err, ok, type Result } from '../result.js';
import { balancesOf } from './balancesOf.js';
import type { Balances, CreditLot, Ledger, LedgerEntry } from './ledger.js';
import { spendFromLots } from './spendLots.js';
import { BALANCE_MAX } from './virtualCurrency.js';

/** Why an adjustment was refused. */
export type AdjustmentErrorCode =
  | 'insufficient_balance'
  | 'balance_limit'
  | 'invalid_amount'
  | 'unknown_currency'
  | 'empty_adjustments';

export interface AdjustmentError {
  code: AdjustmentErrorCode;
  /** The currency at fault, or null when the request as a whole is. */
  currency: string | null;
  message: string;
}

/** An applied adjustment: the new ledger, what changed and the balances after. */
export interface Adjusted {
  ledger: Ledger;
  entries: LedgerEntry[];
  balances: Balances;
}

/** The outcome of an adjustment: the core's one outcome type, with one error saying why not. */
export type AdjustmentOutcome = Result<Adjusted, AdjustmentError>;

export interface AdjustOptions {
  /** Free text stored on every entry (the API's `reference`). */
  reference?: string;
  /** When given, a currency outside this list is refused with `unknown_currency`. */
  known_currencies?: readonly string[];
  /**
   * `transaction` (default): entries are `spend` / `deposit`. `update`: the change is a balance
   * update without a transaction (the API's update_balance), so entries and new lots are `set`.
   */
  record?: 'transaction' | 'update';
}

const refuse = (code: AdjustmentErrorCode, currency: string | null, message: string): AdjustmentOutcome =>
  err({ code, currency, message });

/**
 * Given a ledger, signed amounts by currency code and an instant, returns the ledger with every
 * amount applied, the entries describing it and the balances after; or, if any currency would go
 * below 0 or above 2,000,000,000 (or an amount is not an integer), an error and no change at all.
 * Pure.
 *
 * @example
 * const out = adjustBalances(ledger, { GLD: -50, SLV: 200 }, now, { reference: 'order-7' });
 * if (!out.ok) out.errors[0]?.code; // 'insufficient_balance'
 */
export function adjustBalances(
  ledger: Ledger,
  adjustments: Readonly<Record<string, number>>,
  now: number,
  opts: AdjustOptions = {},
): AdjustmentOutcome {
  const codes = Object.keys(adjustments);
  if (codes.length === 0) return refuse('empty_adjustments', null, 'adjustments must name at least one currency');
  const before = balancesOf(ledger, now);
  for (const code of codes) {
    const amount = adjustments[code];
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) {
      return refuse('invalid_amount', code, `The adjustment of ${code} must be an integer`);
    }
    if (opts.known_currencies !== undefined && !opts.known_currencies.includes(code)) {
      return refuse('unknown_currency', code, `Virtual currency ${code} does not exist`);
    }
  }
  for (const code of codes) {
    const after = (before[code] ?? 0) + (adjustments[code] ?? 0);
    if (after < 0) return refuse('insufficient_balance', code, "Customer's balance is not enough to perform the transaction.");
  }
  for (const code of codes) {
    const after = (before[code] ?? 0) + (adjustments[code] ?? 0);
    if (after > BALANCE_MAX) {
      return refuse('balance_limit', code, `The balance of ${code} cannot exceed ${BALANCE_MAX}`);
    }
  }

  const update = opts.record === 'update';
  const ref = opts.reference === undefined ? {} : { reference: opts.reference };
  let lots: CreditLot[] = ledger.lots;
  let next_lot = ledger.next_lot;
  const entries: LedgerEntry[] = [];
  for (const code of codes) {
    const amount = adjustments[code] ?? 0;
    if (amount < 0) {
      const spent = spendFromLots(lots, code, -amount, now, update ? 'set' : 'spend', opts.reference);
      lots = spent.lots;
      entries.push(...spent.entries);
    } else if (amount > 0) {
      const lot: CreditLot = {
        lot_id: `lot_${next_lot}`,
        currency: code,
        remaining: amount,
        granted_at: now,
        expires_at: null,
        source: update ? 'set' : 'deposit',
      };
      next_lot += 1;
      lots = [...lots, lot];
      entries.push({ kind: update ? 'set' : 'deposit', currency: code, amount, lot_id: lot.lot_id, at: now, ...ref });
    }
  }
  const next: Ledger = { lots, next_lot };
  return ok({ ledger: next, entries, balances: balancesOf(next, now) });
}
