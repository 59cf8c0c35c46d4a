/** The official API v2 `Offering` and `Package` objects, and the bodies that create and change them. */
import { z } from 'zod';
import type { OfferingRecord, PackageRecord } from '../machine/world.js';
import type { ProductResource } from './productResource.js';

const metadataSchema = z.record(z.string(), z.unknown()).nullable();

/** The body of `POST /offerings`. */
export const createOfferingBodySchema = z.strictObject({
  lookup_key: z.string().min(1).max(200),
  display_name: z.string().min(1).max(1500),
  metadata: metadataSchema.optional(),
});

/** The body of `POST /offerings/{offering_id}` (an update). */
export const updateOfferingBodySchema = z.strictObject({
  display_name: z.string().min(1).max(1500).optional(),
  is_current: z.boolean().optional(),
  metadata: metadataSchema.optional(),
});

/** The body of `POST /offerings/{offering_id}/packages`. */
export const createPackageBodySchema = z.strictObject({
  lookup_key: z.string().min(1).max(200),
  display_name: z.string().min(1).max(1500),
  position: z.number().int().optional(),
});

/** The body of `POST /packages/{package_id}` (an update). */
export const updatePackageBodySchema = z.strictObject({
  display_name: z.string().min(1).max(1500).optional(),
  position: z.number().int().min(1).optional(),
});

/** The body of `attach_products`: 1–50 products, each with its eligibility criteria. */
export const attachPackageProductsBodySchema = z.strictObject({
  products: z
    .array(z.strictObject({ product_id: z.string().min(1).max(255), eligibility_criteria: z.enum(['all', 'google_sdk_lt_6', 'google_sdk_ge_6']) }))
    .min(1)
    .max(50),
});

/** The body of `detach_products`: 1–50 product ids. */
export const detachPackageProductsBodySchema = z.strictObject({ product_ids: z.array(z.string().min(1).max(255)).min(1).max(50) });

interface ListOf<T> {
  object: 'list';
  items: T[];
  next_page: null;
  url: string;
}

/** A package's product as the `Package` object carries it (`PackageProductAssociation`). */
export interface PackageProductResource {
  product: ProductResource;
  eligibility_criteria: string;
}

export interface PackageResource {
  object: 'package';
  id: string;
  lookup_key: string;
  display_name: string;
  position: number | null;
  created_at: number;
  products?: ListOf<PackageProductResource>;
}

export interface OfferingResource {
  object: 'offering';
  id: string;
  lookup_key: string;
  display_name: string;
  is_current: boolean;
  created_at: number;
  project_id: string;
  metadata: Record<string, unknown> | null;
  packages?: ListOf<PackageResource>;
}

/** A whole list in one page, as expanded children are. */
export const wholeList = <T>(items: T[], url: string): ListOf<T> => ({ object: 'list', items, next_page: null, url });

/**
 * Given a stored package and, when expanded, its products' objects, returns its `Package` object
 * (`products` only when expanded).
 *
 * @example
 * toPackageResource(record).object; // 'package'
 */
export function toPackageResource(p: PackageRecord, products?: { list: PackageProductResource[]; url: string }): PackageResource {
  const base: PackageResource = { object: 'package', id: p.id, lookup_key: p.lookup_key, display_name: p.display_name, position: p.position, created_at: p.created_at };
  return products === undefined ? base : { ...base, products: wholeList(products.list, products.url) };
}

/**
 * Given a stored offering, whether it is its project's current one and, when expanded, its packages'
 * objects, returns its `Offering` object (`packages` only when expanded).
 *
 * @example
 * toOfferingResource(record, true).is_current; // true
 */
export function toOfferingResource(o: OfferingRecord, isCurrent: boolean, packages?: { list: PackageResource[]; url: string }): OfferingResource {
  const base: OfferingResource = {
    object: 'offering',
    id: o.id,
    lookup_key: o.lookup_key,
    display_name: o.display_name,
    is_current: isCurrent,
    created_at: o.created_at,
    project_id: o.project_id,
    metadata: o.metadata,
  };
  return packages === undefined ? base : { ...base, packages: wholeList(packages.list, packages.url) };
}
