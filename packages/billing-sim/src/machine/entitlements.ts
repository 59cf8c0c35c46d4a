/**
 * Entitlements of a project and the products that unlock them, as API v2 defines them. Attaching a
 * product also adds the entitlement's lookup key to the catalog product's `entitlement_ids`, so the
 * webhooks of its purchases name it, as the real service's do.
 */
import { hexFrom } from '../internal/random.js';
import { fail, ok, type Result } from './apiError.js';
import { productsOf, writableProducts, type SimContext } from './context.js';
import { pmapGet, pmapSet, pmapValues } from './persistentMap.js';
import type { World, EntitlementRecord } from './world.js';

/**
 * Given a world and a project, returns its entitlements in creation order.
 *
 * @example
 * entitlementsOf(world, 'proj1').map((e) => e.lookup_key); // ['premium']
 */
export const entitlementsOf = (world: World, projectId: string): EntitlementRecord[] =>
  pmapValues(world.api.entitlements).filter((e) => e.project_id === projectId).sort((a, b) => a.seq - b.seq);

/**
 * Given a world, a project and a product id, returns the entitlements the product unlocks: those it
 * is attached to, and those whose lookup key the catalog product names (`entitlement_ids` of a /sim
 * product), so API v2 and API v1 agree on what a product unlocks.
 *
 * @example
 * entitlementsForProduct(world, 'proj1', 'monthly').map((e) => e.id);
 */
export function entitlementsForProduct(world: World, projectId: string, productId: string): EntitlementRecord[] {
  const named = world.products.get(productId)?.entitlement_ids ?? [];
  return entitlementsOf(world, projectId).filter((e) => e.product_ids.includes(productId) || named.includes(e.lookup_key));
}

/**
 * Given a world (or a transition's draft) and a project, returns its entitlement with this lookup
 * key, or undefined.
 *
 * @example
 * entitlementByLookupKey(world, 'proj1', 'pro')?.id; // 'entl…'
 */
export const entitlementByLookupKey = (world: Pick<World, 'api'>, projectId: string, lookupKey: string): EntitlementRecord | undefined =>
  pmapValues(world.api.entitlements).find((e) => e.project_id === projectId && e.lookup_key === lookupKey);

/** The entitlement of a project, or 404 naming `entitlement_id`. */
export function findEntitlement(ctx: SimContext, projectId: string, id: string): Result<EntitlementRecord> {
  const found = pmapGet(ctx.api.entitlements, id);
  return found === undefined || found.project_id !== projectId ? fail('resource_missing', `Entitlement ${id} not found`, 'entitlement_id') : ok(found);
}

const store = (ctx: SimContext, e: EntitlementRecord) => {
  ctx.api = { ...ctx.api, entitlements: pmapSet(ctx.api.entitlements, e.id, e) };
};

/** Creates an entitlement (id `entl` + 16 hex digits); 409 when the project has its lookup key. */
export function createEntitlement(ctx: SimContext, projectId: string, lookupKey: string, displayName: string): Result<EntitlementRecord> {
  const all = pmapValues(ctx.api.entitlements);
  if (entitlementByLookupKey(ctx, projectId, lookupKey) !== undefined) {
    return fail('resource_already_exists', `An entitlement with lookup_key ${lookupKey} already exists`, 'lookup_key');
  }
  const record: EntitlementRecord = {
    id: `entl${hexFrom(ctx.random, 16)}`,
    project_id: projectId,
    lookup_key: lookupKey,
    display_name: displayName,
    created_at: ctx.now,
    product_ids: [],
    seq: all.reduce((m, e) => Math.max(m, e.seq), 0) + 1,
  };
  store(ctx, record);
  return ok(record);
}

/** Attaches or detaches catalog products (404 naming `product_ids` for one the catalog lacks). */
export function changeEntitlementProducts(
  ctx: SimContext,
  projectId: string,
  id: string,
  productIds: readonly string[],
  attach: boolean,
): Result<EntitlementRecord> {
  const found = findEntitlement(ctx, projectId, id);
  if (!found.ok) return found;
  const missing = productIds.find((p) => !productsOf(ctx).has(p));
  if (missing !== undefined) return fail('resource_missing', `Product ${missing} not found`, 'product_ids');
  const next = { ...found.value };
  next.product_ids = attach ? [...new Set([...next.product_ids, ...productIds])] : next.product_ids.filter((p) => !productIds.includes(p));
  store(ctx, next);
  const products = writableProducts(ctx);
  for (const productId of productIds) {
    const product = products.get(productId);
    if (product === undefined) continue;
    const keys = (product.entitlement_ids ?? []).filter((k) => k !== next.lookup_key);
    const entitlementIds = attach ? [...keys, next.lookup_key] : keys;
    products.set(productId, { ...product, entitlement_ids: entitlementIds.length === 0 ? null : entitlementIds });
  }
  return ok(next);
}
