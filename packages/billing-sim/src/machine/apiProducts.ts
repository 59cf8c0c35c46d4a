/**
 * Products created through API v2 (`POST /products`): they join the one catalog every project
 * shares (the one `/sim/products` fills), keyed by their store identifier, which is the product id
 * purchases and webhooks use.
 */
import { fail, ok, type Result } from './apiError.js';
import { productsOf, writableProducts, type SimContext } from './context.js';
import { pmapGet, pmapSet } from './persistentMap.js';
import type { Product, World } from './world.js';

/**
 * Given a world and a product id, returns when API v2 created it, or 0 for a product of the
 * simulator's catalog (`/sim/products`, the `products` option), whose creation time is not kept.
 *
 * @example
 * productCreatedAt(world, 'monthly'); // 0
 */
export const productCreatedAt = (world: World, productId: string): number => pmapGet(world.api.product_created_at, productId) ?? 0;

/** Adds a product to the catalog; 409 naming `store_identifier` when the id is taken. */
export function createApiProduct(ctx: SimContext, product: Product): Result<Product> {
  if (productsOf(ctx).has(product.id)) return fail('resource_already_exists', `A product with store_identifier ${product.id} already exists`, 'store_identifier');
  writableProducts(ctx).set(product.id, product);
  ctx.api = { ...ctx.api, product_created_at: pmapSet(ctx.api.product_created_at, product.id, ctx.now) };
  return ok(product);
}
