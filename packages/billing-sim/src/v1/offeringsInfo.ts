/**
 * API v1's offerings (the official `Offerings` object, plus the `placements` the SDKs read): the
 * project's offerings of API v2, each package with the product its app shows, the customer's current
 * offering (an assigned one wins), and placements falling back to it.
 */
import { offeringFor, offeringsOf } from '../machine/offerings.js';
import type { PackageRecord, World } from '../machine/world.js';
import { packagesOf } from '../machine/packages.js';
import { placementsOf } from '../machine/placements.js';
import { pmapGet } from '../machine/persistentMap.js';

/** The product a package shows every SDK (`all`), else its first one; null when it has none. */
export const packageProductOf = (pkg: PackageRecord): string | null =>
  (pkg.products.find((p) => p.eligibility_criteria === 'all') ?? pkg.products[0])?.product_id ?? null;

/**
 * Given a world, a project and a customer id (which need not exist), returns API v1's offerings body.
 * Identifiers are lookup keys, as the SDKs show them; a package without a product is left out.
 *
 * @example
 * toOfferingsInfo(world, 'proj_sim', 'u1').current_offering_id; // 'default'
 */
export function toOfferingsInfo(world: World, projectId: string, customerId: string) {
  const current = offeringFor(world, projectId, customerId);
  const offerings = offeringsOf(world, projectId).map((o) => ({
    identifier: o.lookup_key,
    description: o.display_name,
    metadata: o.metadata,
    packages: packagesOf(world, o.id).flatMap((p) => {
      const product = packageProductOf(p);
      return product === null ? [] : [{ identifier: p.lookup_key, platform_product_identifier: product }];
    }),
  }));
  const byPlacement: Record<string, string | null> = {};
  for (const [name, id] of Object.entries(placementsOf(world, projectId))) byPlacement[name] = id === null ? null : (pmapGet(world.api.offerings, id)?.lookup_key ?? null);
  return {
    current_offering_id: current?.lookup_key ?? null,
    offerings,
    placements: { fallback_offering_id: current?.lookup_key ?? null, offering_ids_by_placement: byPlacement },
  };
}
