/** Setting balances to given values (a balance update, not a spend or a deposit). */
import { err } from '../result.js';
import { adjustBalances, type AdjustmentOutcome } from './adjustBalances.js';
import { balanceOf } from './balancesOf.js';
import type { Ledger } from './ledger.js';
import { BALANCE_MAX } from './virtualCurrency.js';

/**
 * Given a ledger, target balances by currency code and an instant, returns the ledger whose balances
 * equal the targets, all or nothing. The change is recorded as `set` entries, not as spends or
 * deposits: a lower target removes credits in spending order (soonest-expiring first), a higher one
 * adds a non-expiring `set` lot. Targets must be integers in 0..2,000,000,000. Pure.
 *
 * @example
 * const out = setBalances(ledger, { CRD: 500 }, now);
 * if (out.ok) out.value.balances.CRD; // 500
 */
export function setBalances(
  ledger: Ledger,
  targets: Readonly<Record<string, number>>,
  now: number,
  opts: { reference?: string; known_currencies?: readonly string[] } = {},
): AdjustmentOutcome {
  const deltas: Record<string, number> = Object.create(null) as Record<string, number>; // "__proto__" is a valid code
  for (const [code, target] of Object.entries(targets)) {
    if (!Number.isSafeInteger(target) || target < 0 || target > BALANCE_MAX) {
      return err({ code: 'invalid_amount', currency: code, message: `The balance of ${code} must be an integer in 0..${BALANCE_MAX}` });
    }
    deltas[code] = target - balanceOf(ledger, code, now);
  }
  return adjustBalances(ledger, deltas, now, { ...opts, record: 'update' });
}
