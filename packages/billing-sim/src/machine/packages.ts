/**
 * Packages of an offering and the catalog products they hold, as API v2 defines them. A lookup key is
 * unique within its offering; the simulator has one app, so a package holds at most one product per
 * eligibility criteria (`all`, or Google's `google_sdk_lt_6` / `google_sdk_ge_6`). Configuration: no webhook.
 */
import { hexFrom } from '../internal/random.js';
import { fail, ok, type Result } from './apiError.js';
import { productsOf, type SimContext } from './context.js';
import { findOffering } from './offerings.js';
import type { EligibilityCriteria, PackageRecord, World } from './world.js';
import { pmapGet, pmapRemove, pmapSet, pmapValues } from './persistentMap.js';

/** Listing order: by position (packages without one last), then creation. */
const byPosition = (a: PackageRecord, b: PackageRecord) => (a.position ?? Infinity) - (b.position ?? Infinity) || a.seq - b.seq;

/**
 * Given a world and an offering id, returns its packages in listing order (position, then creation).
 *
 * @example
 * packagesOf(world, 'ofrng1a2b3c4d5e').map((p) => p.lookup_key); // ['$rc_monthly']
 */
export const packagesOf = (world: World, offeringId: string): PackageRecord[] =>
  pmapValues(world.api.packages).filter((p) => p.offering_id === offeringId).sort(byPosition);

/** The package of a project, or 404 naming `package_id`. */
export function findPackage(ctx: SimContext, projectId: string, id: string): Result<PackageRecord> {
  const found = pmapGet(ctx.api.packages, id);
  return found === undefined || found.project_id !== projectId ? fail('resource_missing', `Package ${id} not found`, 'package_id') : ok(found);
}

const store = (ctx: SimContext, p: PackageRecord) => {
  ctx.api = { ...ctx.api, packages: pmapSet(ctx.api.packages, p.id, p) };
};

/** What `create_package` takes. */
export interface PackageInput {
  lookup_key: string;
  display_name: string;
  position?: number | undefined;
}

/** Creates a package in an offering (id `pkge` + 10 hex digits): 404 offering, 409 lookup key taken in it. */
export function createPackage(ctx: SimContext, projectId: string, offeringId: string, input: PackageInput): Result<PackageRecord> {
  const offering = findOffering(ctx, projectId, offeringId);
  if (!offering.ok) return offering;
  const all = pmapValues(ctx.api.packages);
  if (all.some((p) => p.offering_id === offeringId && p.lookup_key === input.lookup_key)) {
    return fail('resource_already_exists', `A package with lookup_key ${input.lookup_key} already exists in the offering`, 'lookup_key');
  }
  const record: PackageRecord = {
    id: `pkge${hexFrom(ctx.random, 10)}`,
    project_id: projectId,
    offering_id: offeringId,
    lookup_key: input.lookup_key,
    display_name: input.display_name,
    position: input.position ?? null,
    created_at: ctx.now,
    products: [],
    seq: all.reduce((m, p) => Math.max(m, p.seq), 0) + 1,
  };
  store(ctx, record);
  return ok(record);
}

/** Updates a package's display name or position (404 naming `package_id`). */
export function updatePackage(ctx: SimContext, projectId: string, id: string, update: { display_name?: string | undefined; position?: number | undefined }): Result<PackageRecord> {
  const found = findPackage(ctx, projectId, id);
  if (!found.ok) return found;
  const next = { ...found.value };
  if (update.display_name !== undefined) next.display_name = update.display_name;
  if (update.position !== undefined) next.position = update.position;
  store(ctx, next);
  return ok(next);
}

/** Deletes a package from its offering. */
export function deletePackage(ctx: SimContext, projectId: string, id: string): Result<{ object: 'package'; id: string; deleted_at: number }> {
  const found = findPackage(ctx, projectId, id);
  if (!found.ok) return found;
  ctx.api = { ...ctx.api, packages: pmapRemove(ctx.api.packages, id) };
  return ok({ object: 'package', id, deleted_at: ctx.now });
}

/**
 * Attaches catalog products to a package: 404 naming `products` for one the catalog lacks, 422 when
 * the package already holds another product for the same eligibility criteria (one app, one product
 * each). A product already attached takes the new criteria. All or nothing.
 */
export function attachPackageProducts(
  ctx: SimContext,
  projectId: string,
  id: string,
  products: readonly { product_id: string; eligibility_criteria: EligibilityCriteria }[],
): Result<PackageRecord> {
  const found = findPackage(ctx, projectId, id);
  if (!found.ok) return found;
  const missing = products.find((p) => !productsOf(ctx).has(p.product_id));
  if (missing !== undefined) return fail('resource_missing', `Product ${missing.product_id} not found`, 'products');
  let held = [...found.value.products];
  for (const p of products) {
    held = held.filter((h) => h.product_id !== p.product_id);
    if (held.some((h) => h.eligibility_criteria === p.eligibility_criteria)) {
      return fail('unprocessable_entity_error', `The package already has a product for eligibility criteria ${p.eligibility_criteria}`, 'products');
    }
    held.push({ product_id: p.product_id, eligibility_criteria: p.eligibility_criteria });
  }
  const next = { ...found.value, products: held };
  store(ctx, next);
  return ok(next);
}

/** Detaches products from a package (ids it does not hold are ignored). */
export function detachPackageProducts(ctx: SimContext, projectId: string, id: string, productIds: readonly string[]): Result<PackageRecord> {
  const found = findPackage(ctx, projectId, id);
  if (!found.ok) return found;
  const next = { ...found.value, products: found.value.products.filter((p) => !productIds.includes(p.product_id)) };
  store(ctx, next);
  return ok(next);
}
