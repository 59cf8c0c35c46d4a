/**
 * The zod schemas of the HTTP interface: the same schemas validate requests and generate
 * /openapi.json (responses are described by schemas too, so the document covers every route).
 */
import { ACTIONS, AT_RISK_SORTS, RISK_BANDS, SUBSCRIBER_STATES, URGENCIES, epochMsSchema, identifierSchema } from '@tenure/core';
import { z } from 'zod';
import { DISPATCH_OUTCOMES } from '../dispatch/dispatchLog.js';
import { MAX_CURSOR_LENGTH } from './atRiskCursor.js';
import { offerViewSchema } from './offerSchemas.js';

const DISPATCH_CHANNELS = ['email', 'chat', 'log', 'webhook'] as const;

const epochMs = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** A query-string integer: digits only, then range-checked. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'Expected a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** The `:customer_id` of a path: the same identifier rule as webhook ids (at most 256 UTF-8 bytes, storable). */
export const customerIdParamsSchema = z.strictObject({
  customer_id: identifierSchema,
});

const MIN_SCORE_DESCRIPTION = 'Lowest risk score included; default the configured `bands.high` (60 unless overridden).';

const filters = {
  min_score: queryInt(0, 100).optional().meta({ description: MIN_SCORE_DESCRIPTION }),
  state: z.enum(SUBSCRIBER_STATES).optional(),
  band: z.enum(RISK_BANDS).optional(),
};

/** The environments the service keeps apart: RevenueCat's `environment`, lower case. */
export const ENVIRONMENTS = ['production', 'sandbox'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
const environment = z
  .enum(ENVIRONMENTS)
  .optional()
  .meta({ description: '`production` (default) or `sandbox`: SANDBOX events are kept apart and never dispatched.' });

/** The query of the subscriber routes: which environment to read (other parameters are ignored, as before). */
export const environmentQuerySchema = z.object({ environment });

export const atRiskQuerySchema = z.strictObject({
  ...filters,
  environment,
  sort: z
    .enum(AT_RISK_SORTS)
    .optional()
    .meta({ description: '`score` (default): risk score descending; `revenue`: monthly value (USD) descending, revenue at risk first. Ties by customer id.' }),
  limit: queryInt(1, 500).optional().meta({ description: 'Page size; default 50, at most 500.' }),
  cursor: z.string().max(MAX_CURSOR_LENGTH).optional().meta({ description: 'Opaque: `next_cursor` of the previous page of the same `sort`.' }),
});
export type AtRiskQuery = z.output<typeof atRiskQuerySchema>;

/** POST /api/dispatch also takes the filters in the query string (the body wins). */
export const dispatchQuerySchema = z.strictObject({
  ...filters,
  limit: queryInt(1, 500).optional(),
  dry_run: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});

/** The dispatch body takes the at-risk filters as JSON values. */
export const dispatchBodySchema = z.strictObject({
  min_score: z.number().int().min(0).max(100).optional().meta({ description: MIN_SCORE_DESCRIPTION }),
  state: z.enum(SUBSCRIBER_STATES).optional(),
  band: z.enum(RISK_BANDS).optional(),
  limit: z.number().int().min(1).max(500).optional().meta({ description: 'Most subscribers in this pass; default 50.' }),
  dry_run: z.boolean().optional().meta({ description: 'Plan only: return the deliveries without sending or logging.' }),
});
export type DispatchBody = z.output<typeof dispatchBodySchema>;

export const activityBodySchema = z.strictObject({
  at: epochMsSchema.optional().meta({ description: 'When the user was active (epoch ms, from 2000-01-01 to before 2100-01-01); default now.' }),
});

export const dispatchesQuerySchema = z.strictObject({
  limit: queryInt(1, 500).optional(),
  cursor: z.string().regex(/^\d+$/, 'Expected the next_cursor of a previous page').optional(),
});

// ---- Responses (documentation) ----

export const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

export const recommendationSchema = z.object({
  action: z.enum(ACTIONS),
  urgency: z.enum(URGENCIES),
  reason: z.string(),
  priority: z.number().int().min(1),
});

export const breakdownSchema = z.object({
  state: z.number().int(),
  billing_failures: z.number().int(),
  renewals: z.number().int(),
  inactivity: z.number().int(),
  trial_conversion: z.number().int(),
  cancel_reason: z.number().int(),
});

/** Beside every score when the service has a calibration; absent without one (docs/retention-service.md, "Churn probability"). */
const churnProbability = z
  .number()
  .min(0)
  .max(1)
  .optional()
  .meta({ description: 'The calibrated chance (0–1) that a subscriber with this score churns within the horizon of the calibration (`GET /api/config`); present only when the service has a calibration.' });

export const recommendResponseSchema = z.object({
  customer_id: z.string(),
  risk_score: z.number().int().min(0).max(100),
  churn_probability: churnProbability,
  risk_band: z.enum(RISK_BANDS),
  breakdown: breakdownSchema,
  recommendations: z.array(recommendationSchema),
});

const nullableMs = epochMs.nullable();
export const subscriberResponseSchema = z.object({
  customer_id: z.string(),
  environment: z.enum(ENVIRONMENTS).meta({ description: 'The environment read: `production` unless `?environment=sandbox` (SANDBOX events are kept apart).' }),
  original_app_user_id: z.string().nullable().meta({ description: 'The customer\'s first app user id (`original_app_user_id` of its events); null when no event carried one.' }),
  aliases: z.array(z.string()).meta({ description: 'Every other id the customer was known by (`aliases` of its events), code-point order, at most 10; empty when none.' }),
  ids: z.array(z.string()).meta({
    description:
      'Every id this subscriber is known by here (`customer_id`, `original_app_user_id`, `aliases`), code-point order: one person under several ids is one subscriber, and `/api/subscribers/{id}` answers for any id its events named. `customer_id` is the id the app uses now (the `app_user_id` of the latest event).',
  }),
  state: z.enum(SUBSCRIBER_STATES),
  cancel_reason: z.string().nullable().meta({ description: '`cancel_reason` of the latest lifecycle event when it is a CANCELLATION (e.g. `UNSUBSCRIBE`, `PRICE_INCREASE`, `CUSTOMER_SUPPORT`), else null.' }),
  grace_ends_at: nullableMs.meta({ description: 'End of the current grace period of a billing issue (access continues until then); null when not in one, or when a later event ended it.' }),
  auto_resume_at: nullableMs.meta({ description: '`auto_resume_at_ms` of the latest pause: when the paused subscription comes back; null when unknown.' }),
  temporary_access_until: nullableMs.meta({ description: 'End of the latest temporary entitlement grant (access during a store outage, not a purchase); null when none.' }),
  promotional_access_until: nullableMs.meta({ description: 'End of the access a granted (promotional) entitlement gives, by its latest grant, revoke or expiry; null when none, or for a grant without end. While it gives access, a churned, refunded or paused subscriber is assessed as pending_cancel with its period ending then (active for a grant without end).' }),
  product_id: z.string().nullable(),
  period_ends_at: nullableMs,
  billing_failures: z.number().int(),
  renewals: z.number().int(),
  trial_started_at: nullableMs,
  trial_ends_at: nullableMs,
  trial_converted_at: nullableMs,
  last_activity_at: nullableMs,
  first_event_at: epochMs,
  last_event_at: epochMs,
  event_count: z.number().int(),
  revenue: z
    .object({
      price: z.number().meta({ description: 'USD, of the latest lifecycle event that charged something.' }),
      price_in_purchased_currency: z.number().nullable(),
      currency: z.string().nullable(),
      takehome_percentage: z.number().nullable(),
      store: z.string().nullable(),
      period_ms: z.number().int().nullable().meta({ description: '`expiration_at_ms − purchased_at_ms` of that event.' }),
    })
    .nullable()
    .meta({ description: 'The current subscription\'s price, currency, store and period; null until a charge is seen (docs/rules.md §9).' }),
  monthly_value_usd: z.number().nonnegative().meta({ description: 'The revenue at risk: the price per month, whole cents.' }),
  risk_score: z.number().int().min(0).max(100),
  churn_probability: churnProbability,
  risk_band: z.enum(RISK_BANDS),
  breakdown: breakdownSchema,
  offers: z
    .array(offerViewSchema)
    .optional()
    .meta({ description: 'With offers configured (`offers` of the configuration file): each offer, and whether its action is recommended now; `POST /api/subscribers/{customer_id}/offers/{action}` grants one. Absent without offers.' }),
});

export const activityResponseSchema = z.object({ ok: z.literal(true), customer_id: z.string(), last_activity_at: nullableMs });

export const atRiskResponseSchema = z.object({
  items: z.array(
    z.object({
      customer_id: z.string(),
      state: z.enum(SUBSCRIBER_STATES),
      risk_score: z.number().int(),
      churn_probability: churnProbability,
      risk_band: z.enum(RISK_BANDS),
      monthly_value_usd: z.number().nonnegative().meta({ description: 'The current subscription as a monthly value in USD, whole cents (docs/rules.md §9).' }),
      top_recommendation: recommendationSchema.nullable(),
    }),
  ),
  next_cursor: z.string().nullable(),
  total: z
    .object({ subscribers: z.number().int().nonnegative(), monthly_value_usd: z.number().nonnegative() })
    .meta({ description: 'Every subscriber matching the filters (all pages) and their summed monthly value in USD.' }),
});

const outcomeCounts = z.object(Object.fromEntries(DISPATCH_OUTCOMES.map((o) => [o, z.number().int()])));
export const dispatchSummarySchema = z.object({
  dry_run: z.boolean(),
  subscribers: z.number().int(),
  deliveries: z.number().int(),
  outcomes: outcomeCounts,
  channels: z.object(Object.fromEntries(DISPATCH_CHANNELS.map((c) => [c, outcomeCounts]))),
  planned: z.array(
    z.object({
      customer_id: z.string(),
      action: z.enum(ACTIONS),
      urgency: z.enum(URGENCIES),
      channel: z.enum(DISPATCH_CHANNELS),
      target: z.string().nullable().meta({ description: 'The webhook endpoint the delivery goes to (its name, as the dispatch log’s `target`); null on the email, chat and log channels.' }),
      monthly_value_usd: z.number().nonnegative().nullable().meta({ description: 'The revenue at risk the alert shows: monthly value in USD, whole cents; null when no price is known.' }),
      store: z.string().nullable().meta({ description: 'The store of the current subscription as RevenueCat sends it (`APP_STORE`, ...); null when unknown.' }),
    }),
  ),
});

export * from './dispatchSchemas.js';

export const healthResponseSchema = z.object({ status: z.literal('ok'), service: z.string() });
export const readyResponseSchema = z.object({ status: z.literal('ready'), service: z.string() });
export const notReadyResponseSchema = z.object({ status: z.literal('not_ready'), service: z.string(), reason: z.string().meta({ description: '`shutting down`, `the store did not answer within 2000 ms`, or `the store failed: <error>`' }) });
export const webhookAckSchema = z.object({ ok: z.literal(true), result: z.enum(['applied', 'duplicate', 'ignored']) });
