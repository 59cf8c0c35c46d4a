/** The official API v2 `Entitlement` object, and the bodies that create one and attach products. */
import { z } from 'zod';
import type { EntitlementRecord } from '../machine/world.js';

/** The body of `POST /entitlements`. */
export const createEntitlementBodySchema = z.strictObject({
  lookup_key: z.string().min(1).max(200),
  display_name: z.string().min(1).max(1500),
});

/** The body of `POST /entitlements/{entitlement_id}` (an update). */
export const updateEntitlementBodySchema = z.strictObject({ display_name: z.string().min(1).max(1500) });

/** The body of the attach and detach actions: 1–50 product ids. */
export const entitlementProductsBodySchema = z.strictObject({
  product_ids: z.array(z.string().min(1).max(255)).min(1).max(50),
});

export interface EntitlementResource {
  object: 'entitlement';
  project_id: string;
  id: string;
  lookup_key: string;
  display_name: string;
  created_at: number;
}

/**
 * Given a stored entitlement, returns its `Entitlement` object (without the expandable `products`).
 *
 * @example
 * toEntitlementResource(record).lookup_key; // 'premium'
 */
export const toEntitlementResource = (e: EntitlementRecord): EntitlementResource => ({
  object: 'entitlement',
  project_id: e.project_id,
  id: e.id,
  lookup_key: e.lookup_key,
  display_name: e.display_name,
  created_at: e.created_at,
});
