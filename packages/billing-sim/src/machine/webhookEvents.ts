/**
 * Builds webhook bodies in the billing service's real format, `{ api_version: "1.0", event }`, for
 * the subscription lifecycle, transfers and virtual currency grants. Every event the core types is a
 * value of the core's own event types (`z.infer` of its webhook and credit event schemas), so a field
 * the core cannot parse does not compile; the documented types the core does not type yet are
 * declared here in the same shape.
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
import type { Product, CustomerState, OneTimePurchase, SubscriptionState } from './world.js';

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

/** The fields every subscription lifecycle event shares (the core's INITIAL_PURCHASE shape without its type). */
// (A key-remapping mapped type, not Omit: Omit of a loose object's index signature drops every known key.)
type LifecycleFields = { [K in keyof InitialPurchaseEvent as K extends 'type' ? never : K]: InitialPurchaseEvent[K] };

// The event types below are documented by the billing service (revenuecat.md §1.3, §1.4) but not yet
// typed by the core's schemas (the core accepts them as unhandled events); each is the shared
// lifecycle shape plus its own fields, as in the testkit's real-format fixtures.
/** SUBSCRIPTION_PAUSED (Play): set to pause at the period end; `auto_resume_at_ms` says when it resumes. */
export type SubscriptionPausedEvent = LifecycleFields & { type: 'SUBSCRIPTION_PAUSED'; auto_resume_at_ms: number };
/** SUBSCRIPTION_EXTENDED: the expiration (`expiration_at_ms`) moved later. */
export type SubscriptionExtendedEvent = LifecycleFields & { type: 'SUBSCRIPTION_EXTENDED' };
/** TEMPORARY_ENTITLEMENT_GRANT: a short entitlement during a store outage; not a purchase. */
export type TemporaryEntitlementGrantEvent = LifecycleFields & { type: 'TEMPORARY_ENTITLEMENT_GRANT' };
/** REFUND_REVERSED: a refund was reversed. */
export type RefundReversedEvent = LifecycleFields & { type: 'REFUND_REVERSED' };
/** TRANSFER: transactions moved between app user ids; no `app_user_id`, sent for the destination. */
export interface TransferEvent {
  type: 'TRANSFER';
  id: string;
  app_id: string;
  event_timestamp_ms: number;
  environment: 'SANDBOX' | 'PRODUCTION';
  store: string;
  transferred_from: string[];
  transferred_to: string[];
  /** Open like the core's event types (receivers tolerate new fields). */
  [field: string]: unknown;
}

/** Every event the simulator emits: a handled event of the core, a documented one it does not type yet, or a currency transaction. */
export type SimEvent =
  | InitialPurchaseEvent
  | RenewalEvent
  | CancellationEvent
  | UncancellationEvent
  | ExpirationEvent
  | BillingIssueEvent
  | ProductChangeEvent
  | SubscriptionPausedEvent
  | SubscriptionExtendedEvent
  | TemporaryEntitlementGrantEvent
  | RefundReversedEvent
  | TransferEvent
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
  SUBSCRIPTION_PAUSED: { auto_resume_at_ms: number };
  SUBSCRIPTION_EXTENDED: Record<never, never>;
  TEMPORARY_ENTITLEMENT_GRANT: Record<never, never>;
  REFUND_REVERSED: Record<never, never>;
}
export type LifecycleType = keyof LifecycleExtras;

/** Compile-time check: every extra field has the type the schema of its event gives it. */
type ExtrasFitEvents = { [T in LifecycleType]: LifecycleExtras[T] extends Partial<LifecycleEvents[T]> ? true : never };
const extrasFitEvents: ExtrasFitEvents = {
  INITIAL_PURCHASE: true, RENEWAL: true, CANCELLATION: true, UNCANCELLATION: true, EXPIRATION: true, BILLING_ISSUE: true, PRODUCT_CHANGE: true,
  SUBSCRIPTION_PAUSED: true, SUBSCRIPTION_EXTENDED: true, TEMPORARY_ENTITLEMENT_GRANT: true, REFUND_REVERSED: true,
};
void extrasFitEvents;

/** The event type each lifecycle type builds. */
interface LifecycleEvents {
  INITIAL_PURCHASE: InitialPurchaseEvent;
  RENEWAL: RenewalEvent;
  CANCELLATION: CancellationEvent;
  UNCANCELLATION: UncancellationEvent;
  EXPIRATION: ExpirationEvent;
  BILLING_ISSUE: BillingIssueEvent;
  PRODUCT_CHANGE: ProductChangeEvent;
  SUBSCRIPTION_PAUSED: SubscriptionPausedEvent;
  SUBSCRIPTION_EXTENDED: SubscriptionExtendedEvent;
  TEMPORARY_ENTITLEMENT_GRANT: TemporaryEntitlementGrantEvent;
  REFUND_REVERSED: RefundReversedEvent;
}

/**
 * The store's cut and tax on every priced event: no tax, a 15 % commission (the small-business rate
 * of the App Store and Play), so 85 % take-home, as in the billing service's published samples.
 */
export const COMMISSION_PERCENTAGE = 0.15;
export const TAX_PERCENTAGE = 0;
export const TAKEHOME_PERCENTAGE = 0.85;

// Shared, frozen: every event carries these empty values, and 300 k events a month need not allocate them.
const NO_ATTRIBUTES: Record<string, never> = Object.freeze({});
const NO_EXPERIMENTS: never[] = Object.freeze([]) as never[];

/** The customer's aliases, shared by its events (events are read, never changed). */
const aliasesOf = (customer: CustomerState): string[] => (customer.aliases ?? [customer.id]) as string[];

/** The identity fields every event of a customer opens with (its id, app, time, the customer's ids). */
export const eventIdentity = (ctx: EventContext, customer: CustomerState) => ({
  id: ctx.id,
  app_id: ctx.app_id,
  event_timestamp_ms: ctx.at,
  app_user_id: customer.id,
  original_app_user_id: customer.id,
  aliases: aliasesOf(customer),
  subscriber_attributes: NO_ATTRIBUTES,
  experiments: NO_EXPERIMENTS,
});

/** The fields of a subscription its lifecycle events carry, as they were when the event was emitted. */
export type EventSubscriptionFields = Pick<
  SubscriptionState,
  | 'product_id'
  | 'period_type'
  | 'period_start'
  | 'period_end'
  | 'environment'
  | 'store'
  | 'presented_offering_id'
  | 'transaction_id'
  | 'original_transaction_id'
  | 'country_code'
  | 'renewal_number'
>;

/**
 * Given a lifecycle type, the event's id, app id and time, the customer's id and aliases, the
 * product, the subscription's fields and the type's own field (`extraKey` and `extraValue`; or
 * `extras`, an object of several, as a refund's CANCELLATION has), returns the webhook body of that
 * event in the billing service's field order. `environment` and `store` are the subscription's.
 *
 * @example
 * lifecycleBody('EXPIRATION', id, 'app_sim', now, 'u1', ['u1'], product, sub, 'expiration_reason', 'UNSUBSCRIBE', null);
 */
export function lifecycleBody(
  type: LifecycleType,
  id: string,
  appId: string,
  at: number,
  userId: string,
  aliases: string[],
  product: Product,
  sub: EventSubscriptionFields,
  extraKey: string | null,
  extraValue: unknown,
  extras: object | null,
): WebhookBody {
  const event = extras === null ? sharedFields(type, id, appId, at, userId, aliases, sub, product, extraKey, extraValue) : Object.assign(sharedFields(type, id, appId, at, userId, aliases, sub, product, null, null), extras);
  // Every shared field is checked against the core's type (sharedFields) and every extra by
  // ExtrasFitEvents; TypeScript cannot follow the type into the union member, hence the one assertion.
  return { api_version: '1.0', event: event as unknown as SimEvent };
}

/**
 * The fields every lifecycle event shares, in the billing service's order, then at most one extra
 * field (a lifecycle event's one field of its own goes into the literal as its last, computed
 * property: one object with every field in place, not a property store afterwards).
 */
function sharedFields(type: LifecycleType, id: string, appId: string, at: number, userId: string, aliases: string[], sub: EventSubscriptionFields, product: Product, extraKey: string | null, extraValue: unknown) {
  const price = sub.period_type === 'TRIAL' ? 0 : product.price;
  if (extraKey === null) {
    return {
      type,
      id,
      app_id: appId,
      event_timestamp_ms: at,
      app_user_id: userId,
      original_app_user_id: userId,
      aliases,
      subscriber_attributes: NO_ATTRIBUTES,
      experiments: NO_EXPERIMENTS,
      product_id: sub.product_id,
      entitlement_ids: product.entitlement_ids,
      entitlement_id: null,
      period_type: sub.period_type,
      purchased_at_ms: sub.period_start,
      expiration_at_ms: sub.period_end,
      environment: sub.environment,
      store: sub.store,
      presented_offering_id: sub.presented_offering_id,
      transaction_id: sub.transaction_id,
      original_transaction_id: sub.original_transaction_id,
      price,
      currency: product.currency,
      price_in_purchased_currency: price,
      tax_percentage: TAX_PERCENTAGE,
      commission_percentage: COMMISSION_PERCENTAGE,
      takehome_percentage: TAKEHOME_PERCENTAGE,
      country_code: sub.country_code,
      is_family_share: false,
      offer_code: null,
      renewal_number: sub.renewal_number,
    } satisfies LifecycleFields & { type: LifecycleType };
  }
  // The same literal with the extra field last (a literal, not a spread of the one above).
  return {
    type,
    id,
    app_id: appId,
    event_timestamp_ms: at,
    app_user_id: userId,
    original_app_user_id: userId,
    aliases,
    subscriber_attributes: NO_ATTRIBUTES,
    experiments: NO_EXPERIMENTS,
    product_id: sub.product_id,
    entitlement_ids: product.entitlement_ids,
    entitlement_id: null,
    period_type: sub.period_type,
    purchased_at_ms: sub.period_start,
    expiration_at_ms: sub.period_end,
    environment: sub.environment,
    store: sub.store,
    presented_offering_id: sub.presented_offering_id,
    transaction_id: sub.transaction_id,
    original_transaction_id: sub.original_transaction_id,
    price,
    currency: product.currency,
    price_in_purchased_currency: price,
    tax_percentage: TAX_PERCENTAGE,
    commission_percentage: COMMISSION_PERCENTAGE,
    takehome_percentage: TAKEHOME_PERCENTAGE,
    country_code: sub.country_code,
    is_family_share: false,
    offer_code: null,
    renewal_number: sub.renewal_number,
    [extraKey]: extraValue,
  } satisfies LifecycleFields & { type: LifecycleType };
}

/**
 * Given a context (its environment and store are the moved subscriptions'), the ids the
 * subscriptions left and the ids they went to, returns the TRANSFER webhook body (no `app_user_id`,
 * no product fields, as the billing service sends it).
 *
 * @example
 * transferEvent(ctx, ['u1'], ['u2']).event.transferred_to; // ['u2']
 */
export function transferEvent(ctx: EventContext, from: string[], to: string[]): WebhookBody {
  const event: TransferEvent = {
    type: 'TRANSFER',
    id: ctx.id,
    app_id: ctx.app_id,
    event_timestamp_ms: ctx.at,
    environment: ctx.environment,
    store: ctx.store,
    transferred_from: from,
    transferred_to: to,
  };
  return { api_version: '1.0', event };
}

/**
 * Given a context, a customer, a one-time purchase and its product, returns the NON_RENEWING_PURCHASE
 * webhook body, or with `refund` the CANCELLATION(CUSTOMER_SUPPORT) of it. Its store, environment and
 * offering are the purchase's (not the context's), so both events tell what the purchase was made with.
 *
 * @example
 * nonRenewingPurchaseEvent(ctx, customer, pack, purchase, 'US', false);
 */
export function nonRenewingPurchaseEvent(
  ctx: EventContext,
  customer: CustomerState,
  product: Product,
  purchase: OneTimePurchase,
  countryCode: string,
  refund: boolean,
): WebhookBody {
  const transactionId = purchase.transaction_id;
  const fields = {
    ...eventIdentity(ctx, customer),
    product_id: product.id,
    entitlement_ids: product.entitlement_ids,
    entitlement_id: null,
    period_type: 'NORMAL',
    purchased_at_ms: ctx.at,
    expiration_at_ms: null,
    environment: purchase.environment,
    store: purchase.store,
    presented_offering_id: purchase.presented_offering_id,
    transaction_id: transactionId,
    original_transaction_id: transactionId,
    price: refund ? -product.price : product.price,
    currency: product.currency,
    price_in_purchased_currency: refund ? -product.price : product.price,
    tax_percentage: TAX_PERCENTAGE,
    commission_percentage: COMMISSION_PERCENTAGE,
    takehome_percentage: TAKEHOME_PERCENTAGE,
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
 * Given the event's id, app id and time, the customer's id and aliases, the adjustments, the product
 * behind them, the purchase's environment and store, the currency transaction's id and the store
 * transaction's, returns the VIRTUAL_CURRENCY_TRANSACTION webhook body (`purchase_environment`
 * replaces `environment`).
 *
 * @example
 * currencyBody(id, 'app_sim', now, 'u1', ['u1'], [{ amount: 100, currency: { code: 'CRD', name: 'Credits', description: null } }], monthly, 'SANDBOX', 'TEST_STORE', 'vctx_1', 'tx_1');
 */
export function currencyBody(
  id: string,
  appId: string,
  at: number,
  userId: string,
  aliases: string[],
  adjustments: VcAdjustment[],
  product: Product | null,
  environment: string,
  store: string,
  vcTransactionId: string,
  transactionId: string | null,
): WebhookBody {
  const event: VirtualCurrencyTransactionEvent = {
    type: 'VIRTUAL_CURRENCY_TRANSACTION',
    id,
    app_id: appId,
    event_timestamp_ms: at,
    app_user_id: userId,
    original_app_user_id: userId,
    aliases,
    subscriber_attributes: NO_ATTRIBUTES,
    experiments: NO_EXPERIMENTS,
    adjustments,
    product_id: product?.id ?? null,
    product_display_name: product?.display_name ?? null,
    purchase_environment: environment,
    store,
    source: 'in_app_purchase',
    transaction_id: transactionId,
    virtual_currency_transaction_id: vcTransactionId,
  };
  return { api_version: '1.0', event };
}
