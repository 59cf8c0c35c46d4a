/**
 * Zod schemas for the billing service's (RevenueCat's) webhook body.
 *
 * Tolerant where the billing service may change: unknown fields pass through, almost every field is
 * optional or nullable, and unknown event types are accepted (as unhandled). Strict where tenure needs
 * data: `event.type` is required, and every handled type requires `id`, `app_user_id` and
 * `event_timestamp_ms`.
 */
import { z } from 'zod';
import { EPOCH_MS_END, EPOCH_MS_MESSAGE, EPOCH_MS_MIN } from './epochMs.js';
import { ID_TOO_LONG_MESSAGE, identifierProblem, MAX_ID_BYTES } from './identifier.js';

/**
 * An instant: integer epoch ms from 2000-01-01T00:00:00Z (inclusive) to 2100-01-01T00:00:00Z
 * (exclusive); see `isEpochMs`.
 *
 * @example
 * epochMsSchema.safeParse(Number.MAX_SAFE_INTEGER).success; // false
 */
export const epochMsSchema = z
  .number({ error: EPOCH_MS_MESSAGE })
  .int({ error: EPOCH_MS_MESSAGE })
  .gte(EPOCH_MS_MIN, { error: EPOCH_MS_MESSAGE })
  .lt(EPOCH_MS_END, { error: EPOCH_MS_MESSAGE });
const optionalMs = epochMsSchema.nullable().optional();
const optionalString = z.string().nullable().optional();
const optionalNumber = z.number().nullable().optional();
const optionalBool = z.boolean().nullable().optional();

/**
 * An identifier tenure stores and keys by: non-empty, at most `MAX_ID_BYTES` (256) bytes of UTF-8,
 * storable in every database unchanged (see `identifierProblem`).
 *
 * @example
 * identifierSchema.safeParse('a\u0000b').success; // false
 */
export const identifierSchema = z
  .string()
  // maxLength in code units for JSON Schema readers (a code unit is at least one byte); the check
  // below counts the bytes.
  .max(MAX_ID_BYTES, { error: ID_TOO_LONG_MESSAGE })
  .superRefine((text, ctx) => {
    const problem = identifierProblem(text);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });
const optionalId = identifierSchema.nullable().optional();
const optionalIds = z.array(identifierSchema).nullable().optional();

/**
 * What an event type looks like: an upper-case identifier of at most 64 characters. Unknown types
 * of this shape are accepted (and ignored); anything else is an error.
 *
 * @example
 * EVENT_TYPE_PATTERN.test('PAYWALL_IMPRESSION'); // true
 * EVENT_TYPE_PATTERN.test('renewal'); // false
 */
export const EVENT_TYPE_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
/** The message of an event type that is not an upper-case identifier. */
export const EVENT_TYPE_MESSAGE = 'Expected an event type: A-Z first, then up to 63 of A-Z, 0-9 or _';
const eventTypeSchema = z.string().regex(EVENT_TYPE_PATTERN, EVENT_TYPE_MESSAGE);

/** Lifecycle event types that move a subscriber between states. */
export const LIFECYCLE_EVENT_TYPES = [
  'INITIAL_PURCHASE',
  'RENEWAL',
  'CANCELLATION',
  'UNCANCELLATION',
  'EXPIRATION',
  'BILLING_ISSUE',
  'PRODUCT_CHANGE',
  'REFUND_REVERSED',
] as const;

/**
 * Every event type tenure applies to a subscriber: the lifecycle types, plus top-ups (activity only),
 * a scheduled pause (its resume time), an extension (a later period end) and a temporary grant
 * during a store outage (temporary access, not a purchase).
 */
export const HANDLED_EVENT_TYPES = [
  ...LIFECYCLE_EVENT_TYPES,
  'NON_RENEWING_PURCHASE',
  'SUBSCRIPTION_PAUSED',
  'SUBSCRIPTION_EXTENDED',
  'TEMPORARY_ENTITLEMENT_GRANT',
] as const;

/**
 * Event types RevenueCat documents that do not change a subscriber in tenure (docs/rules.md §1 says
 * why for each). `TRANSFER` carries no `app_user_id`: it names the ids in `transferred_from` and
 * `transferred_to`, read with `transferOf`, and moves a subscription between records, which is the
 * store's work.
 */
export const DOCUMENTED_UNHANDLED_EVENT_TYPES = [
  'TEST',
  'TRANSFER',
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

/**
 * Identifiers and instants any event type may carry, checked on every event, handled or not, when
 * present: ids are bounded and storable, instants are in range.
 */
const identityFields = {
  id: optionalId,
  event_timestamp_ms: optionalMs,
  app_user_id: optionalId,
  original_app_user_id: optionalId,
  aliases: optionalIds,
  /** TRANSFER */
  transferred_from: optionalIds,
  transferred_to: optionalIds,
  purchased_at_ms: optionalMs,
  expiration_at_ms: optionalMs,
  /** BILLING_ISSUE */
  grace_period_expiration_at_ms: optionalMs,
  /** SUBSCRIPTION_PAUSED */
  auto_resume_at_ms: optionalMs,
  /** EXPERIMENT_ENROLLMENT */
  experiment_enrolled_at_ms: optionalMs,
};

/** Other fields every event may carry (all optional here; handled types tighten the ones tenure needs). */
const commonFields = {
  ...identityFields,
  app_id: optionalString,
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
  event_timestamp_ms: epochMsSchema,
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
export const billingIssueEventSchema = handledEvent('BILLING_ISSUE', {});
export const productChangeEventSchema = handledEvent('PRODUCT_CHANGE', { new_product_id: optionalString });
export const nonRenewingPurchaseEventSchema = handledEvent('NON_RENEWING_PURCHASE', {});
export const refundReversedEventSchema = handledEvent('REFUND_REVERSED', {});
export const subscriptionPausedEventSchema = handledEvent('SUBSCRIPTION_PAUSED', {});
export const subscriptionExtendedEventSchema = handledEvent('SUBSCRIPTION_EXTENDED', {});
export const temporaryEntitlementGrantEventSchema = handledEvent('TEMPORARY_ENTITLEMENT_GRANT', {});

/**
 * TRANSFER: a subscription's transactions moved from the ids in `transferred_from` to those in
 * `transferred_to` (each a bounded, storable identifier). It has no `app_user_id`: RevenueCat sends
 * it once, for the destination. Not a handled event (no subscriber is keyed by it); see `transferOf`.
 */
export const transferEventSchema = z.looseObject({
  ...commonFields,
  id: identifierSchema,
  event_timestamp_ms: epochMsSchema,
  type: z.literal('TRANSFER'),
  transferred_from: z.array(identifierSchema),
  transferred_to: z.array(identifierSchema),
});

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
  REFUND_REVERSED: refundReversedEventSchema,
  SUBSCRIPTION_PAUSED: subscriptionPausedEventSchema,
  SUBSCRIPTION_EXTENDED: subscriptionExtendedEventSchema,
  TEMPORARY_ENTITLEMENT_GRANT: temporaryEntitlementGrantEventSchema,
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
  refundReversedEventSchema,
  subscriptionPausedEventSchema,
  subscriptionExtendedEventSchema,
  temporaryEntitlementGrantEventSchema,
]);

/**
 * Any event whose type tenure does not handle: the type must be an identifier, and the identifiers
 * and instants any event may carry are checked when present; every other field passes unchecked,
 * since the billing service may add types (and shapes) without a new API version.
 */
export const unhandledEventSchema = z.looseObject({ ...identityFields, type: eventTypeSchema });

/** The webhook envelope: `{ api_version, event }`. */
export const webhookEnvelopeSchema = z.looseObject({
  api_version: optionalString,
  event: z.looseObject({ type: eventTypeSchema }),
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
export type RefundReversedEvent = z.infer<typeof refundReversedEventSchema>;
export type SubscriptionPausedEvent = z.infer<typeof subscriptionPausedEventSchema>;
export type SubscriptionExtendedEvent = z.infer<typeof subscriptionExtendedEventSchema>;
export type TemporaryEntitlementGrantEvent = z.infer<typeof temporaryEntitlementGrantEventSchema>;
export type TransferEvent = z.infer<typeof transferEventSchema>;

/** An event tenure applies to a subscriber. */
export type HandledEvent = z.infer<typeof handledEventSchema>;
/** An event of a type tenure does not handle (documented or new): accepted and ignored. */
export type UnhandledEvent = z.infer<typeof unhandledEventSchema>;
