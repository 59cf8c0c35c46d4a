/**
 * The webhooks of a granted entitlement, as the billing service sends them: a grant is a
 * NON_RENEWING_PURCHASE in the `PROMOTIONAL` store with period type `PROMOTIONAL` (production, no
 * price), named by its `rc_promo_<entitlement>_<duration>` product; a revoked grant is its
 * CANCELLATION (`CUSTOMER_SUPPORT`, as a refund of it would be).
 */
import type { CancellationEvent, NonRenewingPurchaseEvent } from '@tenure/core';
import type { CustomerState } from './world.js';
import { eventIdentity, TAX_PERCENTAGE, type EventContext, type WebhookBody } from './webhookEvents.js';

/** What a grant's events carry besides the customer and the event context. */
export interface PromotionalFields {
  product_id: string;
  lookup_key: string;
  granted_at: number;
  expires_at: number | null;
  transaction_id: string;
}

/**
 * Given an event context, the customer, the grant and whether it is revoked, returns the webhook body.
 *
 * @example
 * promotionalEvent(ctx, customer, { product_id: 'rc_promo_pro_weekly', lookup_key: 'pro', granted_at, expires_at, transaction_id }, false).event.store; // 'PROMOTIONAL'
 */
export function promotionalEvent(ctx: EventContext, customer: CustomerState, grant: PromotionalFields, revoked: boolean): WebhookBody {
  const fields = {
    ...eventIdentity(ctx, customer),
    product_id: grant.product_id,
    entitlement_ids: [grant.lookup_key],
    entitlement_id: null,
    period_type: 'PROMOTIONAL',
    purchased_at_ms: grant.granted_at,
    expiration_at_ms: revoked ? ctx.at : grant.expires_at,
    environment: 'PRODUCTION',
    store: 'PROMOTIONAL',
    presented_offering_id: null,
    transaction_id: grant.transaction_id,
    original_transaction_id: grant.transaction_id,
    price: 0,
    currency: 'USD',
    price_in_purchased_currency: 0,
    tax_percentage: TAX_PERCENTAGE,
    commission_percentage: 0,
    takehome_percentage: 1,
    country_code: 'US',
    is_family_share: false,
    offer_code: null,
    renewal_number: 1,
  };
  const event: NonRenewingPurchaseEvent | CancellationEvent = revoked
    ? { type: 'CANCELLATION', ...fields, cancel_reason: 'CUSTOMER_SUPPORT' }
    : { type: 'NON_RENEWING_PURCHASE', ...fields };
  return { api_version: '1.0', event };
}
