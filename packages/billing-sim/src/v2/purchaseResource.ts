/** The official API v2 `Purchase` object of a one-time purchase. */
import type { Product, CustomerState, OneTimePurchase } from '../machine/world.js';
import type { EntitlementResource } from './entitlementResource.js';
import { apiStoreOf, COMMISSION } from './subscriptionResource.js';

export interface PurchaseResource {
  object: 'purchase';
  id: string;
  customer_id: string;
  original_customer_id: string;
  product_id: string;
  purchased_at: number;
  revenue_in_usd: { currency: 'USD'; gross: number; commission: number; tax: number; proceeds: number };
  quantity: number;
  status: 'owned' | 'refunded';
  presented_offering_id: string | null;
  entitlements: { object: 'list'; items: EntitlementResource[]; next_page: null; url: string };
  environment: 'production' | 'sandbox';
  store: string;
  store_purchase_identifier: string;
  ownership: 'purchased';
}

const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * Given a one-time purchase, its customer, the world's catalog and the project's API path prefix (and
 * the entitlements its product unlocks, none when omitted), returns its `Purchase` object (id: the
 * store transaction id), in the store, environment and offering the purchase was made with. Pure. A
 * refunded purchase's revenue is 0, as the real figures are net of refunds.
 *
 * @example
 * toPurchaseResource(p, customer, products, '/v2/projects/proj1').status; // 'owned'
 */
export function toPurchaseResource(
  p: OneTimePurchase,
  customer: CustomerState,
  products: ReadonlyMap<string, Product>,
  base: string,
  entitlements: EntitlementResource[] = [],
): PurchaseResource {
  const gross = p.refunded ? 0 : cents(products.get(p.product_id)?.price ?? 0);
  const commission = cents(gross * COMMISSION);
  return {
    object: 'purchase',
    id: p.transaction_id,
    customer_id: customer.id,
    original_customer_id: customer.id,
    product_id: p.product_id,
    purchased_at: p.purchased_at,
    revenue_in_usd: { currency: 'USD', gross, commission, tax: 0, proceeds: cents(gross - commission) },
    quantity: 1,
    status: p.refunded ? 'refunded' : 'owned',
    presented_offering_id: p.presented_offering_id,
    entitlements: { object: 'list', items: entitlements, next_page: null, url: `${base}/purchases/${encodeURIComponent(p.transaction_id)}/entitlements` },
    environment: p.environment === 'PRODUCTION' ? 'production' : 'sandbox',
    store: apiStoreOf(p.store),
    store_purchase_identifier: p.transaction_id,
    ownership: 'purchased',
  };
}
