/**
 * How the product and entitlement routes show their objects: a `Product` with its `App` when
 * `expand` asks (`app`, `items.app`), an `Entitlement` with its products' `Product`s (`product`,
 * `items.product`).
 */
import { toEntitlementResource, type EntitlementResource } from './entitlementResource.js';
import { wholeList } from './offeringResource.js';
import { toProductResource, type ProductResource } from './productResource.js';
import { appsOf } from './apps.js';
import { toAppResource, type AppResource } from './projectResource.js';
import { productCreatedAt } from '../machine/apiProducts.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import type { EntitlementRecord, Product } from '../machine/world.js';

/** The `Product` object of a catalog product, with the simulator's app (in the given project) when `withAppIn` is set. */
export function productView(sim: BillingSimulator, p: Product, withAppIn?: string): ProductResource & { app?: AppResource } {
  const resource = toProductResource(p, sim.settings.app_id, productCreatedAt(sim.world(), p.id));
  return withAppIn === undefined ? resource : { ...resource, app: toAppResource(appsOf(sim.settings)[0]!, withAppIn) };
}

/** The `Product` objects of an entitlement's attached products (ones the catalog no longer has left out). */
export function entitlementProducts(sim: BillingSimulator, e: EntitlementRecord): ProductResource[] {
  return e.product_ids.flatMap((id) => {
    const p = sim.world().products.get(id);
    return p === undefined ? [] : [productView(sim, p)];
  });
}

/** The `Entitlement` object, with its products when `withProducts`. */
export function entitlementView(sim: BillingSimulator, e: EntitlementRecord, withProducts: boolean): EntitlementResource & { products?: unknown } {
  const resource = toEntitlementResource(e);
  if (!withProducts) return resource;
  return { ...resource, products: wholeList(entitlementProducts(sim, e), `/v2/projects/${e.project_id}/entitlements/${e.id}/products`) };
}
