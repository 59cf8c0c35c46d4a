/** The spending order shared by adjustments and balance updates. */
import { isLive, type CreditLot, type LedgerEntry, type LedgerEntryKind } from './ledger.js';

/**
 * Given lots (in ledger order), returns the live lots of a currency in the order they are spent:
 * soonest-expiring first, then non-expiring ones oldest first; ties keep ledger order. Pure.
 *
 * @example
 * spendingOrder(ledger.lots, 'CRD', now).map((l) => l.lot_id); // ['lot_3', 'lot_1', 'lot_2']
 */
export function spendingOrder(lots: readonly CreditLot[], currency: string, now: number): CreditLot[] {
  const indexed = lots
    .map((lot, index) => ({ lot, index }))
    .filter(({ lot }) => lot.currency === currency && isLive(lot, now));
  indexed.sort((a, b) => {
    const ea = a.lot.expires_at ?? Number.POSITIVE_INFINITY;
    const eb = b.lot.expires_at ?? Number.POSITIVE_INFINITY;
    if (ea !== eb) return ea - eb;
    if (a.lot.granted_at !== b.lot.granted_at) return a.lot.granted_at - b.lot.granted_at;
    return a.index - b.index;
  });
  return indexed.map(({ lot }) => lot);
}

/**
 * Given lots, a currency, a positive amount known to be covered by the live balance, and how to
 * record it, returns the lots after spending (emptied lots dropped) and one entry per lot touched. Pure.
 *
 * @example
 * const { lots, entries } = spendFromLots(ledger.lots, 'CRD', 30, now, 'spend');
 */
export function spendFromLots(
  lots: readonly CreditLot[],
  currency: string,
  amount: number,
  now: number,
  kind: LedgerEntryKind,
  reference?: string,
): { lots: CreditLot[]; entries: LedgerEntry[] } {
  const taken = new Map<string, number>();
  let left = amount;
  for (const lot of spendingOrder(lots, currency, now)) {
    if (left <= 0) break;
    const take = Math.min(left, lot.remaining);
    taken.set(lot.lot_id, take);
    left -= take;
  }
  const entries: LedgerEntry[] = [];
  const next: CreditLot[] = [];
  for (const lot of spendingOrder(lots, currency, now)) {
    const take = taken.get(lot.lot_id);
    if (take !== undefined) {
      entries.push({
        kind,
        currency,
        amount: -take,
        lot_id: lot.lot_id,
        at: now,
        ...(reference === undefined ? {} : { reference }),
      });
    }
  }
  for (const lot of lots) {
    const take = taken.get(lot.lot_id) ?? 0;
    if (take === 0) next.push(lot);
    else if (lot.remaining - take > 0) next.push({ ...lot, remaining: lot.remaining - take });
  }
  return { lots: next, entries };
}
