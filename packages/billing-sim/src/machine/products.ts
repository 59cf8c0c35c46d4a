/**
 * The simulator's product catalog: auto-renewing subscriptions with a period and an optional free
 * trial, and one-time consumable (top-up) products.
 */
import { z } from 'zod';
import { durationSchema } from '../internal/duration.js';
import type { Product } from './world.js';

/** The body of `POST /sim/products`. */
export const productInputSchema = z.strictObject({
  id: z.string().min(1).max(255),
  type: z.enum(['subscription', 'consumable']),
  /** Billing period of a subscription, ISO 8601 (`P1W`, `P1M`, `P1Y`…). Required for subscriptions. */
  period: durationSchema.optional(),
  /** Free trial length of a subscription, ISO 8601 (`P7D`). */
  trial_period: durationSchema.nullable().optional(),
  display_name: z.string().min(1).max(255).optional(),
  price: z.number().nonnegative().optional(),
  currency: z.string().regex(/^[A-Z]{3}$/).optional(),
  entitlement_ids: z.array(z.string().min(1)).nullable().optional(),
});

export type ProductInput = z.infer<typeof productInputSchema>;

/**
 * Given a validated product body, returns the product with its defaults, or a message naming what is
 * missing (a subscription needs a period; a consumable has neither period nor trial).
 *
 * @example
 * toProduct({ id: 'monthly', type: 'subscription', period: 'P1M' }); // { ok: true, product: { … price: 9.99 } }
 */
export function toProduct(input: ProductInput): { ok: true; product: Product } | { ok: false; param: string; message: string } {
  if (input.type === 'subscription' && input.period === undefined) {
    return { ok: false, param: 'period', message: 'A subscription product needs a period, e.g. "P1M"' };
  }
  if (input.type === 'consumable' && (input.period !== undefined || (input.trial_period ?? null) !== null)) {
    return { ok: false, param: 'period', message: 'A consumable product has no period and no trial' };
  }
  return {
    ok: true,
    product: {
      object: 'sim.product',
      id: input.id,
      type: input.type,
      period: input.period ?? null,
      trial_period: input.trial_period ?? null,
      display_name: input.display_name ?? input.id,
      price: input.price ?? (input.type === 'subscription' ? 9.99 : 4.99),
      currency: input.currency ?? 'USD',
      entitlement_ids: input.entitlement_ids ?? null,
    },
  };
}
