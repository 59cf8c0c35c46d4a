/** Bodies of the /sim control API (zod; also the source of the OpenAPI document). */
import { BALANCE_MAX, CANCEL_REASONS, EXPIRATION_REASONS, STORES, currencyAmountsSchema } from '@tenure/core';
import { z } from 'zod';
import { durationSchema } from '../internal/duration.js';
import { VIRTUAL_CLOCK_END } from '../machine/clockBounds.js';

const projectId = z.string().min(1).max(255).optional();
const environmentSchema = z.enum(['SANDBOX', 'PRODUCTION']);
const storeSchema = z.enum(STORES);

export const purchaseBodySchema = z.strictObject({
  project_id: projectId,
  customer_id: z.string().min(1).max(1500),
  product_id: z.string().min(1).max(255),
  /** Start with the product's free trial. */
  trial: z.boolean().optional(),
  presented_offering_id: z.string().min(1).nullable().optional(),
  country_code: z.string().regex(/^[A-Z]{2}$/).optional(),
  /** `SANDBOX` or `PRODUCTION` on every event of this purchase (default: the simulator's). */
  environment: environmentSchema.optional(),
  /** The store on every event of this purchase (default: the simulator's). */
  store: storeSchema.optional(),
});

/** The body of `POST /sim/temporary_grants`: a temporary entitlement during a store outage. */
export const temporaryGrantBodySchema = z.strictObject({
  project_id: projectId,
  customer_id: z.string().min(1).max(1500),
  product_id: z.string().min(1).max(255),
  /** How long (ISO 8601 or ms, at most 24 hours; default PT24H). */
  duration: durationSchema.optional(),
  country_code: z.string().regex(/^[A-Z]{2}$/).optional(),
  environment: environmentSchema.optional(),
  store: storeSchema.optional(),
});

export const pauseBodySchema = z.strictObject({
  /** How long the pause lasts from the period end (ISO 8601 or ms; default P1M). Play offers 1 week to 3 months. */
  resume_after: durationSchema.optional(),
});

export const extendBodySchema = z.strictObject({
  /** How far the period end moves (ISO 8601 or ms). */
  by: durationSchema,
});

export const transferBodySchema = z.strictObject({
  project_id: projectId,
  /** The customer that receives every subscription and one-time purchase. */
  target_customer_id: z.string().min(1).max(1500),
});

/** An empty body (the optional body of routes that take no parameters). */
export const emptyBodySchema = z.strictObject({});

export const cancelBodySchema = z.strictObject({
  reason: z.enum(CANCEL_REASONS.filter((r) => r !== 'BILLING_ERROR') as [string, ...string[]]).optional(),
});

export const billingIssueBodySchema = z.strictObject({
  /** Grace period (ISO 8601 or ms); omitted or null: none, EXPIRATION follows at once. */
  grace_period: durationSchema.nullable().optional(),
  /** `now` (default): the charge fails now. `next_renewal`: the next renewal's charge fails. */
  when: z.enum(['now', 'next_renewal']).optional(),
});

export const productChangeBodySchema = z.strictObject({
  new_product_id: z.string().min(1).max(255),
  /** `next_renewal` (default): PRODUCT_CHANGE now, new product from the next RENEWAL. `immediate`: PRODUCT_CHANGE + RENEWAL now. */
  timing: z.enum(['immediate', 'next_renewal']).optional(),
});

export const expireBodySchema = z.strictObject({
  reason: z.enum(EXPIRATION_REASONS as unknown as [string, ...string[]]).optional(),
});

export const refundPurchaseBodySchema = z.strictObject({ project_id: projectId });

export const advanceBodySchema = z
  .strictObject({
    /** How far: ISO 8601 duration (`P1M`, `PT36H`) or ms. */
    by: durationSchema.optional(),
    /** Where to: epoch ms or an ISO 8601 date-time. */
    to: z.union([z.number().int().nonnegative(), z.iso.datetime({ offset: true })]).optional(),
  })
  .refine((b) => (b.by === undefined) !== (b.to === undefined), { message: 'Give exactly one of by or to', path: ['by'] });

export const setBalancesBodySchema = z.strictObject({
  project_id: projectId,
  /** Absolute balances by currency code (0..2,000,000,000). */
  balances: currencyAmountsSchema(z.number().int().min(0).max(BALANCE_MAX)),
});

/** The body of `POST /sim/reset`: where the clock goes (default: where the simulator started). */
export const resetBodySchema = z.strictObject({
  /** Epoch ms or an ISO 8601 date-time, up to 2100-01-01T00:00:00Z. */
  now: z.union([z.number().int().nonnegative().max(VIRTUAL_CLOCK_END), z.iso.datetime({ offset: true })]).optional(),
});
