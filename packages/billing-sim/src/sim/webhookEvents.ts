/**
 * Builds webhook bodies in the billing service's real format, `{ api_version: "1.0", event }`, for
 * the subscription lifecycle and for virtual currency grants.
 */
import type { Product } from './products.js';
import type { CustomerState, SubscriptionState } from './state.js';

/** What every event needs besides the subscription: its id, virtual time and the app settings. */
export interface EventContext {
  id: string;
  at: number;
  app_id: string;
  store: string;
  environment: 'SANDBOX' | 'PRODUCTION';
}

/** A webhook body as sent. */
export interface WebhookBody {
  api_version: '1.0';
  event: { type: string; id: string; event_timestamp_ms: number; app_user_id: string } & Record<string, unknown>;
}

export type LifecycleType =
  | 'INITIAL_PURCHASE'
  | 'RENEWAL'
  | 'CANCELLATION'
  | 'UNCANCELLATION'
  | 'EXPIRATION'
  | 'BILLING_ISSUE'
  | 'PRODUCT_CHANGE';

const identity = (ctx: EventContext, customer: CustomerState) => ({
  id: ctx.id,
  app_id: ctx.app_id,
  event_timestamp_ms: ctx.at,
  app_user_id: customer.id,
  original_app_user_id: customer.id,
  aliases: [customer.id],
  subscriber_attributes: {},
});

/**
 * Given a context, a customer, a subscription, its product and the type's own fields, returns the
 * webhook body of a subscription lifecycle event.
 *
 * @example
 * lifecycleEvent('CANCELLATION', ctx, customer, sub, product, { cancel_reason: 'UNSUBSCRIBE' });
 */
export function lifecycleEvent(
  type: LifecycleType,
  ctx: EventContext,
  customer: CustomerState,
  sub: SubscriptionState,
  product: Product,
  extra: Record<string, unknown> = {},
): WebhookBody {
  const trial = sub.period_type === 'TRIAL';
  return {
    api_version: '1.0',
    event: {
      type,
      ...identity(ctx, customer),
      product_id: sub.product_id,
      entitlement_ids: product.entitlement_ids,
      period_type: sub.period_type,
      purchased_at_ms: sub.period_start,
      expiration_at_ms: sub.period_end,
      environment: ctx.environment,
      store: ctx.store,
      presented_offering_id: sub.presented_offering_id,
      transaction_id: sub.transaction_id,
      original_transaction_id: sub.original_transaction_id,
      price: trial ? 0 : product.price,
      currency: product.currency,
      price_in_purchased_currency: trial ? 0 : product.price,
      country_code: sub.country_code,
      is_family_share: false,
      offer_code: null,
      renewal_number: sub.renewal_number,
      ...extra,
    },
  };
}

/**
 * Given a context, a customer, a one-time purchase's product and transaction, returns the
 * NON_RENEWING_PURCHASE webhook body.
 *
 * @example
 * nonRenewingPurchaseEvent(ctx, customer, pack, 'tx_1', 'US');
 */
export function nonRenewingPurchaseEvent(
  ctx: EventContext,
  customer: CustomerState,
  product: Product,
  transactionId: string,
  countryCode: string,
  extra: Record<string, unknown> = {},
): WebhookBody {
  return {
    api_version: '1.0',
    event: {
      type: 'NON_RENEWING_PURCHASE',
      ...identity(ctx, customer),
      product_id: product.id,
      entitlement_ids: product.entitlement_ids,
      period_type: 'NORMAL',
      purchased_at_ms: ctx.at,
      expiration_at_ms: null,
      environment: ctx.environment,
      store: ctx.store,
      presented_offering_id: null,
      transaction_id: transactionId,
      original_transaction_id: transactionId,
      price: product.price,
      currency: product.currency,
      price_in_purchased_currency: product.price,
      country_code: countryCode,
      is_family_share: false,
      offer_code: null,
      renewal_number: 1,
      ...extra,
    },
  };
}

/** One currency's change in a VIRTUAL_CURRENCY_TRANSACTION event. */
export interface VcAdjustment {
  amount: number;
  currency: { code: string; name: string; description: string | null };
}

/**
 * Given a context, a customer, the adjustments and the product behind them, returns the
 * VIRTUAL_CURRENCY_TRANSACTION webhook body (`purchase_environment` replaces `environment`).
 *
 * @example
 * virtualCurrencyEvent(ctx, customer, [{ amount: 100, currency: { code: 'CRD', name: 'Credits', description: null } }], monthly, 'vct_1', 'tx_1');
 */
export function virtualCurrencyEvent(
  ctx: EventContext,
  customer: CustomerState,
  adjustments: VcAdjustment[],
  product: Product | null,
  vcTransactionId: string,
  transactionId: string | null,
): WebhookBody {
  return {
    api_version: '1.0',
    event: {
      type: 'VIRTUAL_CURRENCY_TRANSACTION',
      ...identity(ctx, customer),
      adjustments,
      product_id: product?.id ?? null,
      product_display_name: product?.display_name ?? null,
      purchase_environment: ctx.environment,
      store: ctx.store,
      source: 'in_app_purchase',
      transaction_id: transactionId,
      virtual_currency_transaction_id: vcTransactionId,
    },
  };
}
