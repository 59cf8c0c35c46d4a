/**
 * How the offering and package routes show their objects: the `expand` query (a value, or several
 * separated by commas, each one the operation allows), and packages with their products' `Product`
 * objects when expanded.
 */
import { toOfferingResource, toPackageResource, type OfferingResource, type PackageResource } from './offeringResource.js';
import { toProductResource } from './productResource.js';
import { fail, ok, type Result } from '../machine/apiError.js';
import { productCreatedAt } from '../machine/apiProducts.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { currentOfferingId } from '../machine/offerings.js';
import type { OfferingRecord, PackageRecord } from '../machine/world.js';
import { packagesOf } from '../machine/packages.js';

/**
 * Given the query and the values the operation allows, returns the set of requested expansions, or
 * 400 `parameter_error` naming `expand`.
 */
export function parseExpand(query: Record<string, string>, allowed: readonly string[]): Result<Set<string>> {
  const raw = query['expand'];
  if (raw === undefined) return ok(new Set());
  const values = raw.split(',');
  const bad = values.find((v) => !allowed.includes(v));
  return bad === undefined ? ok(new Set(values)) : fail('parameter_error', `expand accepts ${allowed.join(', ')}`, 'expand');
}

/** A package's products as `PackageProductAssociation`s (products the catalog no longer has are left out). */
function packageProducts(sim: BillingSimulator, p: PackageRecord) {
  const world = sim.world();
  return p.products.flatMap((held) => {
    const product = world.products.get(held.product_id);
    if (product === undefined) return [];
    return [{ product: toProductResource(product, sim.settings.app_id, productCreatedAt(world, product.id)), eligibility_criteria: held.eligibility_criteria }];
  });
}

/** A package's products, as the package's products list answers them. */
export const packageProductList = packageProducts;

/** The `Package` object, with its products when `withProducts`. */
export function packageView(sim: BillingSimulator, p: PackageRecord, withProducts: boolean): PackageResource {
  if (!withProducts) return toPackageResource(p);
  return toPackageResource(p, { list: packageProducts(sim, p), url: `/v2/projects/${p.project_id}/packages/${p.id}/products` });
}

/** The `Offering` object, with its packages when `withPackages` (and their products when `withProducts`). */
export function offeringView(sim: BillingSimulator, o: OfferingRecord, withPackages: boolean, withProducts: boolean): OfferingResource {
  const world = sim.world();
  const isCurrent = currentOfferingId(world, o.project_id) === o.id;
  if (!withPackages) return toOfferingResource(o, isCurrent);
  const list = packagesOf(world, o.id).map((p) => packageView(sim, p, withProducts));
  return toOfferingResource(o, isCurrent, { list, url: `/v2/projects/${o.project_id}/offerings/${o.id}/packages` });
}
