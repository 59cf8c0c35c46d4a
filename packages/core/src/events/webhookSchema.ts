/**
 * Zod schemas for the billing service's (RevenueCat's) webhook body.
 *
 * Tolerant where the billing service may change: unknown fields pass through, almost every field is
 * optional or nullable, and unknown event types are accepted (as unhandled). Strict where tenure needs
 * data: `event.type` is required, and every handled type requires `id`, `app_user_id` and
 * `event_timestamp_ms`.
 */
import { z } from 'zod';

/** Epoch milliseconds: a non-negative safe integer. */
const epochMs = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const optionalMs = epochMs.nullable().optional();
const optionalString = z.string().nullable().optional();
const optionalNumber = z.number().nullable().optional();
const optionalBool = z.boolean().nullable().optional();
const nonEmpty = z.string().min(1);

/** A lone UTF-16 surrogate: not encodable as UTF-8, so a database would store U+FFFD in its place. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a text can be stored as an identifier: no U+0000 (PostgreSQL text cannot hold it) and no
 * lone surrogate (UTF-8 cannot encode it; two different ids would be stored as one). Pure.
 *
 * @example
 * isStorableId('user_1'); // true
 * isStorableId('a\u0000b'); // false
 */
export function isStorableId(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** An identifier tenure stores and keys by: non-empty, storable in every database unchanged. */
export const identifierSchema = nonEmpty.refine(isStorableId, 'Must be well-formed Unicode without U+0000');

/** Lifecycle event types that move a subscriber between states. */
export const LIFECYCLE_EVENT_TYPES = [
  'INITIAL_PURCHASE',
  'RENEWAL',
  'CANCELLATION',
  'UNCANCELLATION',
  'EXPIRATION',
  'BILLING_ISSUE',
  'PRODUCT_CHANGE',
] as const;

/** Every event type tenure applies to a subscriber: the lifecycle types plus top-ups (activity only). */
export const HANDLED_EVENT_TYPES = [...LIFECYCLE_EVENT_TYPES, 'NON_RENEWING_PURCHASE'] as const;

/** Event types RevenueCat documents that do not change a subscriber in tenure. */
export const DOCUMENTED_UNHANDLED_EVENT_TYPES = [
  'TEST',
  'TRANSFER',
  'SUBSCRIPTION_PAUSED',
  'SUBSCRIPTION_EXTENDED',
  'TEMPORARY_ENTITLEMENT_GRANT',
  'REFUND_REVERSED',
  'INVOICE_ISSUANCE',
  'VIRTUAL_CURRENCY_TRANSACTION',
  'EXPERIMENT_ENROLLMENT',
  'SUBSCRIBER_ALIAS',
] as const;

export type LifecycleEventType = (typeof LIFECYCLE_EVENT_TYPES)[number];
export type HandledEventType = (typeof HANDLED_EVENT_TYPES)[number];

/** Values RevenueCat documents; kept open (plain string) because new values may appear. */
export const PERIOD_TYPES = ['TRIAL', 'INTRO', 'NORMAL', 'PROMOTIONAL', 'PREPAID'] as const;
export const CANCEL_REASONS = [
  'UNSUBSCRIBE',
  'BILLING_ERROR',
  'DEVELOPER_INITIATED',
  'PRICE_INCREASE',
  'CUSTOMER_SUPPORT',
  'UNKNOWN',
] as const;
export const EXPIRATION_REASONS = [...CANCEL_REASONS, 'SUBSCRIPTION_PAUSED'] as const;
export const STORES = [
  'AMAZON',
  'APP_STORE',
  'MAC_APP_STORE',
  'PADDLE',
  'PLAY_STORE',
  'PROMOTIONAL',
  'RC_BILLING',
  'ROKU',
  'STRIPE',
  'TEST_STORE',
] as const;

/** Fields every event may carry (all optional here; handled types tighten the ones tenure needs). */
const commonFields = {
  id: optionalString,
  app_id: optionalString,
  event_timestamp_ms: optionalMs,
  app_user_id: optionalString,
  original_app_user_id: optionalString,
  aliases: z.array(z.string()).nullable().optional(),
  subscriber_attributes: z.record(z.string(), z.unknown()).nullable().optional(),
  environment: optionalString,
  store: optionalString,
};

/** Fields of subscription lifecycle events. */
const purchaseFields = {
  product_id: optionalString,
  entitlement_ids: z.array(z.string()).nullable().optional(),
  entitlement_id: optionalString,
  period_type: optionalString,
  purchased_at_ms: optionalMs,
  expiration_at_ms: optionalMs,
  presented_offering_id: optionalString,
  price: optionalNumber,
  currency: optionalString,
  price_in_purchased_currency: optionalNumber,
  tax_percentage: optionalNumber,
  commission_percentage: optionalNumber,
  takehome_percentage: optionalNumber,
  transaction_id: optionalString,
  original_transaction_id: optionalString,
  is_family_share: optionalBool,
  country_code: optionalString,
  offer_code: optionalString,
  renewal_number: z.number().int().nullable().optional(),
};

/** What tenure requires of every handled event. */
const requiredIdentity = {
  id: identifierSchema,
  app_user_id: identifierSchema,
  event_timestamp_ms: epochMs,
};

const handledEvent = <T extends HandledEventType, S extends z.ZodRawShape>(type: T, extra: S) =>
  z.looseObject({
    ...commonFields,
    ...purchaseFields,
    ...requiredIdentity,
    type: z.literal(type),
    ...extra,
  });

export const initialPurchaseEventSchema = handledEvent('INITIAL_PURCHASE', {});
export const renewalEventSchema = handledEvent('RENEWAL', { is_trial_conversion: optionalBool });
export const cancellationEventSchema = handledEvent('CANCELLATION', { cancel_reason: optionalString });
export const uncancellationEventSchema = handledEvent('UNCANCELLATION', {});
export const expirationEventSchema = handledEvent('EXPIRATION', { expiration_reason: optionalString });
export const billingIssueEventSchema = handledEvent('BILLING_ISSUE', {
  grace_period_expiration_at_ms: optionalMs,
});
export const productChangeEventSchema = handledEvent('PRODUCT_CHANGE', { new_product_id: optionalString });
export const nonRenewingPurchaseEventSchema = handledEvent('NON_RENEWING_PURCHASE', {});

/** One schema per handled event type: a total table, so a new handled type fails to compile until added. */
export const HANDLED_EVENT_SCHEMAS = {
  INITIAL_PURCHASE: initialPurchaseEventSchema,
  RENEWAL: renewalEventSchema,
  CANCELLATION: cancellationEventSchema,
  UNCANCELLATION: uncancellationEventSchema,
  EXPIRATION: expirationEventSchema,
  BILLING_ISSUE: billingIssueEventSchema,
  PRODUCT_CHANGE: productChangeEventSchema,
  NON_RENEWING_PURCHASE: nonRenewingPurchaseEventSchema,
} as const satisfies Record<HandledEventType, z.ZodType>;

/** The handled events as one discriminated union on `type` (used for JSON Schema / OpenAPI output). */
export const handledEventSchema = z.discriminatedUnion('type', [
  initialPurchaseEventSchema,
  renewalEventSchema,
  cancellationEventSchema,
  uncancellationEventSchema,
  expirationEventSchema,
  billingIssueEventSchema,
  productChangeEventSchema,
  nonRenewingPurchaseEventSchema,
]);

/**
 * Any event whose type tenure does not handle: only `type` is checked, since the billing service may
 * add types (and shapes) without a new API version.
 */
export const unhandledEventSchema = z.looseObject({ type: nonEmpty });

/** The webhook envelope: `{ api_version, event }`. */
export const webhookEnvelopeSchema = z.looseObject({
  api_version: optionalString,
  event: z.looseObject({ type: z.string().min(1) }),
});

/** The webhook body as RevenueCat sends it, for documentation (OpenAPI); parsing goes through `parseWebhook`. */
export const webhookBodySchema = z.looseObject({
  api_version: optionalString,
  event: z.union([handledEventSchema, unhandledEventSchema]),
});

export type InitialPurchaseEvent = z.infer<typeof initialPurchaseEventSchema>;
export type RenewalEvent = z.infer<typeof renewalEventSchema>;
export type CancellationEvent = z.infer<typeof cancellationEventSchema>;
export type UncancellationEvent = z.infer<typeof uncancellationEventSchema>;
export type ExpirationEvent = z.infer<typeof expirationEventSchema>;
export type BillingIssueEvent = z.infer<typeof billingIssueEventSchema>;
export type ProductChangeEvent = z.infer<typeof productChangeEventSchema>;
export type NonRenewingPurchaseEvent = z.infer<typeof nonRenewingPurchaseEventSchema>;

/** An event tenure applies to a subscriber. */
export type HandledEvent = z.infer<typeof handledEventSchema>;
/** An event of a type tenure does not handle (documented or new): accepted and ignored. */
export type UnhandledEvent = z.infer<typeof unhandledEventSchema>;
