/**
 * Changing and removing catalog configuration through API v2: an entitlement's display name, deleting
 * an entitlement (its products stop naming it, its grants go), deleting a product (only one nothing
 * was bought with: renewals and refunds read their product from the catalog).
 */
import { fail, ok, type Result } from './apiError.js';
import { productsOf, writableProducts, type SimContext } from './context.js';
import { findEntitlement } from './entitlements.js';
import type { EntitlementRecord, World } from './world.js';
import { pmapForEach, pmapRemove, pmapSet, pmapValues } from './persistentMap.js';
import { pvecForEach } from './persistentVector.js';

type Deleted<O extends string> = { object: O; id: string; deleted_at: number };

/** Changes an entitlement's display name (404 naming `entitlement_id`). */
export function updateEntitlement(ctx: SimContext, projectId: string, id: string, displayName: string): Result<EntitlementRecord> {
  const found = findEntitlement(ctx, projectId, id);
  if (!found.ok) return found;
  const next = { ...found.value, display_name: displayName };
  ctx.api = { ...ctx.api, entitlements: pmapSet(ctx.api.entitlements, id, next) };
  return ok(next);
}

/**
 * Deletes an entitlement: its products' later webhooks no longer name its lookup key (unless another
 * entitlement of the same key is attached), and every customer's grant of it goes.
 */
export function deleteEntitlement(ctx: SimContext, projectId: string, id: string): Result<Deleted<'entitlement'>> {
  const found = findEntitlement(ctx, projectId, id);
  if (!found.ok) return found;
  const entitlements = pmapRemove(ctx.api.entitlements, id);
  const stillNamed = new Set(pmapValues(entitlements).filter((e) => e.lookup_key === found.value.lookup_key).flatMap((e) => e.product_ids));
  const products = writableProducts(ctx);
  for (const productId of found.value.product_ids) {
    const product = products.get(productId);
    if (product === undefined || stillNamed.has(productId)) continue;
    const keys = (product.entitlement_ids ?? []).filter((k) => k !== found.value.lookup_key);
    products.set(productId, { ...product, entitlement_ids: keys.length === 0 ? null : keys });
  }
  let granted = ctx.api.granted;
  pmapForEach(ctx.api.granted, (grants, key) => {
    if (grants.some((g) => g.entitlement_id === id)) granted = pmapSet(granted, key, grants.filter((g) => g.entitlement_id !== id));
  });
  ctx.api = { ...ctx.api, entitlements, granted };
  return ok({ object: 'entitlement', id, deleted_at: ctx.now });
}

/** Whether any subscription (current or pending product) or one-time purchase of the world uses the product. */
function productInUse(world: World, productId: string): boolean {
  let used = false;
  pvecForEach(world.customers, (c) => {
    used ||= c.subscriptions.some((s) => s.product_id === productId || s.pending_product_id === productId) || c.purchases.some((p) => p.product_id === productId);
  });
  return used;
}

/**
 * Deletes a catalog product (the catalog every project shares): 404 naming `product_id`, 422 when a
 * subscription or purchase uses it. It leaves the entitlements and packages it was attached to.
 */
export function deleteApiProduct(ctx: SimContext, id: string): Result<Deleted<'product'>> {
  if (!productsOf(ctx).has(id)) return fail('resource_missing', `Product ${id} not found`, 'product_id');
  if (productInUse(ctx.base, id)) return fail('unprocessable_entity_error', `Product ${id} has purchases: renewals and refunds need it`, 'product_id');
  writableProducts(ctx).delete(id);
  let { entitlements, packages } = ctx.api;
  for (const e of pmapValues(entitlements)) if (e.product_ids.includes(id)) entitlements = pmapSet(entitlements, e.id, { ...e, product_ids: e.product_ids.filter((p) => p !== id) });
  for (const p of pmapValues(packages)) if (p.products.some((h) => h.product_id === id)) packages = pmapSet(packages, p.id, { ...p, products: p.products.filter((h) => h.product_id !== id) });
  ctx.api = { ...ctx.api, entitlements, packages, product_created_at: pmapRemove(ctx.api.product_created_at, id) };
  return ok({ object: 'product', id, deleted_at: ctx.now });
}
