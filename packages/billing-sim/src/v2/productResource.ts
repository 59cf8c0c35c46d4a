/** The official API v2 `Product` object of a catalog product, and the body that creates one. */
import { z } from 'zod';
import type { Product } from '../machine/world.js';

/**
 * The subscription durations `POST /products` takes: the document's `Duration` enum. The /sim
 * products API takes any ISO 8601 duration (or ms).
 */
export const PRODUCT_DURATIONS = ['P1W', 'P1M', 'P2M', 'P3M', 'P6M', 'P1Y'] as const;

/**
 * The body of `POST /products`: the document's `type` values (the simulator sells two of them);
 * `display_name`, `title` and `subscription` may be null, read as absent.
 */
export const createProductBodySchema = z.strictObject({
  store_identifier: z.string().min(1).max(200),
  app_id: z.string().min(1).max(255),
  type: z.enum(['subscription', 'one_time', 'consumable', 'non_consumable', 'non_renewing_subscription']),
  display_name: z.string().min(1).max(1500).nullable().optional(),
  subscription: z.strictObject({ duration: z.enum(PRODUCT_DURATIONS) }).nullable().optional(),
  title: z.string().min(1).max(1500).nullable().optional(),
});

/** A product as API v2 answers it (schema `Product`). */
export interface ProductResource {
  object: 'product';
  id: string;
  store_identifier: string;
  type: 'subscription' | 'consumable';
  subscription: { duration: string | null; grace_period_duration: string | null; trial_duration: string | null } | null;
  one_time: { is_consumable: boolean } | null;
  created_at: number;
  app_id: string;
  display_name: string;
}

/** An ISO 8601 duration as given, or null for a period given in ms (the object carries durations only). */
const isoOrNull = (d: string | number | null): string | null => (typeof d === 'string' ? d : null);

/**
 * Given a catalog product, the app id and when the catalog got it, returns its `Product` object. The
 * simulator has one store: the store identifier is the product id.
 *
 * @example
 * toProductResource(monthly, 'app_sim', 0).subscription?.duration; // 'P1M'
 */
export function toProductResource(product: Product, appId: string, createdAt: number): ProductResource {
  return {
    object: 'product',
    id: product.id,
    store_identifier: product.id,
    type: product.type,
    subscription:
      product.type === 'subscription'
        ? { duration: isoOrNull(product.period), grace_period_duration: null, trial_duration: isoOrNull(product.trial_period) }
        : null,
    one_time: product.type === 'consumable' ? { is_consumable: true } : null,
    created_at: createdAt,
    app_id: appId,
    display_name: product.display_name,
  };
}
