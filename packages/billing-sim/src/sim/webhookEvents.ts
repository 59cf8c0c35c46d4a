/**
 * Builds webhook bodies in the billing service's real format, `{ api_version: "1.0", event }`, for
 * the subscription lifecycle and for virtual currency grants. Every event is a value of the core's
 * own event types (`z.infer` of its webhook and credit event schemas), so a field the core cannot
 * parse does not compile.
 */
import type {
  BillingIssueEvent,
  CancellationEvent,
  ExpirationEvent,
  InitialPurchaseEvent,
  NonRenewingPurchaseEvent,
  ProductChangeEvent,
  RenewalEvent,
  UncancellationEvent,
  VcAdjustment as CoreVcAdjustment,
  VirtualCurrencyTransactionEvent as CoreVirtualCurrencyTransactionEvent,
} from '@tenure/core';
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

/** One currency's change in a VIRTUAL_CURRENCY_TRANSACTION event (the core's type). */
export type VcAdjustment = CoreVcAdjustment;

/** The VIRTUAL_CURRENCY_TRANSACTION event, typed by the core's schema (a type `parseWebhook` accepts and ignores). */
export type VirtualCurrencyTransactionEvent = CoreVirtualCurrencyTransactionEvent & { type: 'VIRTUAL_CURRENCY_TRANSACTION' };

/** Every event the simulator emits: a handled event of the core, or a currency transaction. */
export type SimEvent =
  | InitialPurchaseEvent
  | RenewalEvent
  | CancellationEvent
  | UncancellationEvent
  | ExpirationEvent
  | BillingIssueEvent
  | ProductChangeEvent
  | NonRenewingPurchaseEvent
  | VirtualCurrencyTransactionEvent;

/** A webhook body as sent. */
export interface WebhookBody {
  api_version: '1.0';
  event: SimEvent;
}

/** The fields of one lifecycle type besides the shared ones, by type. */
export interface LifecycleExtras {
  INITIAL_PURCHASE: Record<never, never>;
  RENEWAL: { is_trial_conversion: boolean };
  CANCELLATION: { cancel_reason: string; price?: number; price_in_purchased_currency?: number };
  UNCANCELLATION: Record<never, never>;
  EXPIRATION: { expiration_reason: string };
  BILLING_ISSUE: { grace_period_expiration_at_ms: number | null };
  PRODUCT_CHANGE: { new_product_id: string };
}
export type LifecycleType = keyof LifecycleExtras;

/** Compile-time check: every extra field has the type the core's schema of its event gives it. */
type ExtrasFitCore = { [T in LifecycleType]: LifecycleExtras[T] extends Partial<LifecycleEvents[T]> ? true : never };
const extrasFitCore: ExtrasFitCore = {
  INITIAL_PURCHASE: true, RENEWAL: true, CANCELLATION: true, UNCANCELLATION: true, EXPIRATION: true, BILLING_ISSUE: true, PRODUCT_CHANGE: true,
};
void extrasFitCore;

/** The event type each lifecycle type builds. */
interface LifecycleEvents {
  INITIAL_PURCHASE: InitialPurchaseEvent;
  RENEWAL: RenewalEvent;
  CANCELLATION: CancellationEvent;
  UNCANCELLATION: UncancellationEvent;
  EXPIRATION: ExpirationEvent;
  BILLING_ISSUE: BillingIssueEvent;
  PRODUCT_CHANGE: ProductChangeEvent;
}

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
 * Given a lifecycle type, a context, a customer, a subscription, its product and the type's own
 * fields, returns the webhook body of that event, typed by the core's schema of the type.
 *
 * @example
 * lifecycleEvent('CANCELLATION', ctx, customer, sub, product, { cancel_reason: 'UNSUBSCRIBE' });
 */
export function lifecycleEvent<T extends LifecycleType>(
  type: T,
  ctx: EventContext,
  customer: CustomerState,
  sub: SubscriptionState,
  product: Product,
  extra: LifecycleExtras[T],
): WebhookBody {
  const trial = sub.period_type === 'TRIAL';
  const event = {
    type: type as LifecycleType,
    id: ctx.id,
    app_id: ctx.app_id,
    event_timestamp_ms: ctx.at,
    app_user_id: customer.id,
    original_app_user_id: customer.id,
    aliases: [customer.id],
    subscriber_attributes: {},
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
  } satisfies Omit<InitialPurchaseEvent, 'type'> & { type: LifecycleType };
  // Every shared field is checked against the core's type above and every extra by ExtrasFitCore;
  // TypeScript cannot follow a generic type into the union member, hence the one assertion.
  return { api_version: '1.0', event: Object.assign(event, extra) as unknown as LifecycleEvents[T] };
}

/**
 * Given a context, a customer, a one-time purchase's product and transaction, returns the
 * NON_RENEWING_PURCHASE webhook body, or with `refund` the CANCELLATION(CUSTOMER_SUPPORT) of it.
 *
 * @example
 * nonRenewingPurchaseEvent(ctx, customer, pack, 'tx_1', 'US', false);
 */
export function nonRenewingPurchaseEvent(
  ctx: EventContext,
  customer: CustomerState,
  product: Product,
  transactionId: string,
  countryCode: string,
  refund: boolean,
): WebhookBody {
  const fields = {
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
    price: refund ? -product.price : product.price,
    currency: product.currency,
    price_in_purchased_currency: refund ? -product.price : product.price,
    country_code: countryCode,
    is_family_share: false,
    offer_code: null,
    renewal_number: 1,
  };
  const event: NonRenewingPurchaseEvent | CancellationEvent = refund
    ? { type: 'CANCELLATION', ...fields, cancel_reason: 'CUSTOMER_SUPPORT' }
    : { type: 'NON_RENEWING_PURCHASE', ...fields };
  return { api_version: '1.0', event };
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
  const event: VirtualCurrencyTransactionEvent = {
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
  };
  return { api_version: '1.0', event };
}
