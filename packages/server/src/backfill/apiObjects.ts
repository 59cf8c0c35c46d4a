/**
 * The API v2 objects the backfill reads (customers, subscriptions, their transactions, one-time
 * purchases), checked with zod at the boundary: only the fields the backfill uses, so the extra
 * fields of the official objects pass through untouched, and a response without them is refused
 * with the field named instead of turning into wrong subscribers.
 */
import { z } from 'zod';

const money = z.object({ currency: z.string(), gross: z.number(), commission: z.number(), tax: z.number(), proceeds: z.number() });
const environment = z.enum(['production', 'sandbox']);
const time = z.number().int();

/** A `Customer` (only its id is used: the rest comes from its subscriptions and purchases). */
export const apiCustomerSchema = z.object({ id: z.string().min(1) });
export type ApiCustomer = z.infer<typeof apiCustomerSchema>;

/** A `Subscription` object (official API v2 shape; the fields the mapping in docs/import.md reads). */
export const apiSubscriptionSchema = z.object({
  id: z.string().min(1),
  customer_id: z.string().min(1),
  original_customer_id: z.string().min(1),
  product_id: z.string().nullable(),
  starts_at: time,
  current_period_starts_at: time,
  current_period_ends_at: time.nullable(),
  ends_at: time.nullable(),
  auto_renewal_status: z.string(),
  status: z.string(),
  total_revenue_in_usd: money,
  presented_offering_id: z.string().nullable(),
  environment,
  store: z.string(),
  store_subscription_identifier: z.string().min(1),
  country: z.string().nullable().optional(),
});
export type ApiSubscription = z.infer<typeof apiSubscriptionSchema>;

/** A `SubscriptionTransaction`: one billing period of a subscription. */
export const apiTransactionSchema = z.object({
  id: z.string().min(1),
  purchased_at: time,
  product_store_identifier: z.string().min(1).optional(),
  expiration_date: time.nullable().optional(),
  effective_expiration_date: time.nullable().optional(),
});
export type ApiTransaction = z.infer<typeof apiTransactionSchema>;

/** A `Purchase`: a one-time (non-renewing) purchase. */
export const apiPurchaseSchema = z.object({
  id: z.string().min(1),
  customer_id: z.string().min(1),
  original_customer_id: z.string().min(1),
  product_id: z.string().min(1),
  purchased_at: time,
  revenue_in_usd: money,
  status: z.enum(['owned', 'refunded']),
  presented_offering_id: z.string().nullable(),
  environment,
  store: z.string(),
  store_purchase_identifier: z.string().min(1),
  country: z.string().nullable().optional(),
});
export type ApiPurchase = z.infer<typeof apiPurchaseSchema>;

/**
 * Given the schema of an item, returns the schema of an API v2 list of them
 * (`{ object: "list", items, next_page }`; `next_page` absent or null on the last page).
 *
 * @example
 * listSchema(apiCustomerSchema).parse(body).items[0]?.id;
 */
export function listSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_page: z.string().nullable().optional() });
}

/** A customer with everything the backfill reads about it. */
export interface CustomerHistory {
  customer: ApiCustomer;
  subscriptions: { subscription: ApiSubscription; transactions: ApiTransaction[] }[];
  purchases: ApiPurchase[];
}
