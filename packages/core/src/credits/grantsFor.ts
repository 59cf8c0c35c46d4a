/**
 * Which credits a purchase earns: the grant rules of every currency applied to one purchase event
 * (trial start, subscription purchase, renewal or one-time top-up).
 */
import type { VirtualCurrency } from './virtualCurrency.js';

/** The kind of purchase event that may earn credits. */
export type GrantKind = 'trial' | 'purchase' | 'renewal' | 'top_up';

/**
 * Whether each kind is a subscription cycle (whose credits may expire at the cycle's end).
 *
 * @example
 * IS_SUBSCRIPTION_CYCLE.top_up; // false: top-up credits never expire
 */
export const IS_SUBSCRIPTION_CYCLE = {
  trial: true,
  purchase: true,
  renewal: true,
  top_up: false,
} as const satisfies Record<GrantKind, boolean>;

/** One purchase event, as the grant rules see it. */
export interface PurchaseContext {
  product_id: string;
  kind: GrantKind;
  /** End of the subscription cycle this purchase starts (epoch ms); null for a top-up. */
  cycle_ends_at: number | null;
  /** When the purchase happened (epoch ms). */
  at: number;
}

/** Credits a purchase earns in one currency, before they enter a ledger. */
export interface PlannedGrant {
  currency: string;
  amount: number;
  /** When these credits expire (epoch ms), or null when they never do. */
  expires_at: number | null;
  source: GrantKind;
  product_id: string;
  at: number;
}

/**
 * Given the project's currencies and one purchase event, returns the credits it earns: one planned
 * grant per matching grant rule, `trial_amount` on a trial start (0 → none) and `amount` otherwise,
 * expiring at the cycle's end when the rule says so and the purchase is a subscription cycle;
 * top-ups never expire. Pure.
 *
 * @example
 * grantsForPurchase([crd], { product_id: 'monthly', kind: 'renewal', cycle_ends_at: end, at: now });
 * // [{ currency: 'CRD', amount: 100, expires_at: end, source: 'renewal', product_id: 'monthly', at: now }]
 */
export function grantsForPurchase(
  currencies: readonly VirtualCurrency[],
  purchase: PurchaseContext,
): PlannedGrant[] {
  // A literal for the first grant (one currency is the common case): `[].push` grows to 16 slots.
  let planned: PlannedGrant[] | null = null;
  for (const currency of currencies) {
    if (currency.state !== 'active') continue;
    for (const grant of currency.product_grants) {
      if (!grant.product_ids.includes(purchase.product_id)) continue;
      const amount = purchase.kind === 'trial' ? grant.trial_amount : grant.amount;
      if (amount <= 0) continue;
      const expiring = grant.expire_at_cycle_end && IS_SUBSCRIPTION_CYCLE[purchase.kind];
      const one: PlannedGrant = {
        currency: currency.code,
        amount,
        expires_at: expiring ? purchase.cycle_ends_at : null,
        source: purchase.kind,
        product_id: purchase.product_id,
        at: purchase.at,
      };
      if (planned === null) planned = [one];
      else planned.push(one);
    }
  }
  return planned ?? [];
}
