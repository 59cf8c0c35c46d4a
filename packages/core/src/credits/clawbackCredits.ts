/**
 * Taking credits back when a purchase is refunded: the refunded period's grants, prorated to the time
 * left, floored at what the customer still holds.
 */
import { adjustBalances } from './adjustBalances.js';
import { balancesOf } from './balancesOf.js';
import type { PlannedGrant } from './grantsFor.js';
import type { Ledger, LedgerEntry } from './ledger.js';

/** The refunded period, or null for a one-time purchase (its whole grant is taken back). */
export interface RefundedPeriod {
  starts_at: number;
  ends_at: number;
}

/** A ledger after a clawback, what was removed (spend entries) and what each currency was owed. */
export interface ClawbackResult {
  ledger: Ledger;
  entries: LedgerEntry[];
  /** Credits owed back per currency before the balance floor (null-prototype record). */
  owed: Record<string, number>;
}

/**
 * Given a refunded period and an instant, returns the share of the period still to run, in 0..1
 * (0 for an empty period). Pure.
 *
 * @example
 * refundFraction({ starts_at: 0, ends_at: 100 }, 25); // 0.75
 */
export function refundFraction(period: RefundedPeriod | null, now: number): number {
  if (period === null) return 1;
  const length = period.ends_at - period.starts_at;
  if (length <= 0) return 0;
  return Math.max(0, Math.min(1, (period.ends_at - now) / length));
}

/**
 * Given a ledger, the grants the refunded purchase earned (`grantsForPurchase` of that purchase), the
 * refunded period (null for a one-time purchase) and an instant, returns the ledger with the credits
 * taken back: per currency, each grant's amount times the share of the period left, rounded up, and
 * never more than the balance (the customer may have spent them). Never fails, never takes more than
 * was granted, never leaves a balance below 0. Spends in the usual order (soonest-expiring first). Pure.
 *
 * @example
 * const grants = grantsForPurchase(currencies, { product_id: 'annual', kind: 'purchase', cycle_ends_at: end, at: start });
 * clawbackCredits(ledger, grants, { starts_at: start, ends_at: end }, now, 'refund:tx_1').entries;
 */
export function clawbackCredits(
  ledger: Ledger,
  grants: readonly PlannedGrant[],
  period: RefundedPeriod | null,
  now: number,
  reference?: string,
): ClawbackResult {
  const fraction = refundFraction(period, now);
  const owed = Object.create(null) as Record<string, number>; // "__proto__" is a valid code
  for (const g of grants) owed[g.currency] = (owed[g.currency] ?? 0) + Math.ceil(g.amount * fraction);
  const balances = balancesOf(ledger, now);
  const take = Object.create(null) as Record<string, number>;
  for (const code of Object.keys(owed)) {
    const amount = Math.min(owed[code] ?? 0, balances[code] ?? 0);
    if (amount > 0) take[code] = -amount;
  }
  if (Object.keys(take).length === 0) return { ledger, entries: [], owed };
  const out = adjustBalances(ledger, take, now, reference === undefined ? {} : { reference });
  // Every amount is a spend within the balance, so the adjustment cannot be refused.
  if (!out.ok) return { ledger, entries: [], owed };
  return { ledger: out.value.ledger, entries: out.value.entries, owed };
}
