/**
 * The products the web SDK prices its packages with (`GET /rcbilling/v1/subscribers/{id}/products`,
 * not in the official document: the shape the SDK parses, `revenuecat-sdk-web.md` §2.3). Prices come
 * from the simulator's catalog in micros of the product's currency; a subscription's free trial is its
 * trial phase.
 */
import type { Product, World } from '../machine/world.js';

const MS_PER_DAY = 86_400_000;

/**
 * Given a catalog period (ISO 8601 or milliseconds), returns it as the SDK parses periods
 * (`P<n>D|W|M|Y`), or null when it has no such form (a period of hours or minutes).
 *
 * @example
 * sdkPeriodOf('P1M'); // 'P1M'
 * sdkPeriodOf(7 * 86_400_000); // 'P7D'
 */
export function sdkPeriodOf(period: string | number | null): string | null {
  if (period === null) return null;
  if (typeof period === 'number') return period > 0 && period % MS_PER_DAY === 0 ? `P${period / MS_PER_DAY}D` : null;
  return /^P\d+[DWMY]$/.test(period) ? period : null;
}

const micros = (amount: number) => Math.round(amount * 1_000_000);

/** One product's details, or null when the SDK could not show it (a period it cannot parse). */
export function productDetailsOf(product: Product) {
  const price = { amount_micros: micros(product.price), currency: product.currency };
  const common = { identifier: product.id, title: product.display_name, description: product.display_name, default_purchase_option_id: 'base_option' };
  if (product.type !== 'subscription') {
    return { ...common, product_type: 'consumable', purchase_options: { base_option: { id: 'base_option', price_id: `prc_${product.id}`, base_price: price } } };
  }
  const period = sdkPeriodOf(product.period);
  if (period === null) return null;
  const trialPeriod = sdkPeriodOf(product.trial_period);
  const trial = trialPeriod === null ? null : { period_duration: trialPeriod, cycle_count: 1, price: null };
  const option = { id: 'base_option', price_id: `prc_${product.id}`, base: { period_duration: period, cycle_count: 1, price }, trial, intro_price: null, discount: null };
  return { ...common, product_type: 'subscription', purchase_options: { base_option: option } };
}

/**
 * Given a world and product ids, returns the web SDK's products body: the catalog's products among
 * them, in the order asked (unknown ids and products the SDK could not parse left out).
 *
 * @example
 * toWebBillingProducts(world, ['monthly']).product_details[0]?.purchase_options.base_option;
 */
export function toWebBillingProducts(world: World, ids: readonly string[]) {
  const details = [];
  for (const id of new Set(ids)) {
    const product = world.products.get(id);
    const found = product === undefined ? null : productDetailsOf(product);
    if (found !== null) details.push(found);
  }
  return { product_details: details };
}
