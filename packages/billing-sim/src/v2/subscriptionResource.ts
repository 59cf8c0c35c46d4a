/** The official API v2 `Subscription` object of a simulated subscription. */
import type { Product, CustomerState, EventSettings, SubscriptionState } from '../machine/world.js';
import type { EntitlementResource } from './entitlementResource.js';
import { toProductResource, type ProductResource } from './productResource.js';

/** The store's cut in the revenue figures: 15 % (the small-business rate of the App Store and Play), no tax. */
export const COMMISSION = 0.15;

/** API v2's `store` values, from the webhook's upper-case store names. */
const STORE_BY_EVENT_STORE: Record<string, string> = {
  APP_STORE: 'app_store',
  MAC_APP_STORE: 'mac_app_store',
  PLAY_STORE: 'play_store',
  AMAZON: 'amazon',
  STRIPE: 'stripe',
  PROMOTIONAL: 'promotional',
  RC_BILLING: 'rc_billing',
};

/**
 * The `store` of the API's objects. The simulator's default `TEST_STORE` has no API value; it is
 * reported as `app_store`, whose ids (digit transaction ids) the simulator's look like.
 */
export const apiStoreOf = (store: string): string => STORE_BY_EVENT_STORE[store] ?? 'app_store';

/** API v2's `status` of a simulated subscription (a status the map does not know is `unknown`). */
const STATUS: Record<string, string> = { trialing: 'trialing', active: 'active', grace: 'in_grace_period', paused: 'paused', temporary: 'active', expired: 'expired' };

export interface SubscriptionResource {
  object: 'subscription';
  id: string;
  customer_id: string;
  original_customer_id: string;
  product_id: string;
  starts_at: number;
  current_period_starts_at: number;
  current_period_ends_at: number;
  ends_at: number | null;
  gives_access: boolean;
  pending_payment: boolean;
  auto_renewal_status: 'will_renew' | 'will_not_renew' | 'will_change_product';
  status: string;
  total_revenue_in_usd: { currency: 'USD'; gross: number; commission: number; tax: number; proceeds: number };
  presented_offering_id: string | null;
  entitlements: { object: 'list'; items: EntitlementResource[]; next_page: null; url: string };
  environment: 'production' | 'sandbox';
  store: string;
  store_subscription_identifier: string;
  ownership: 'purchased';
  pending_changes: { product: ProductResource } | null;
  country: string | null;
  management_url: null;
}

const cents = (n: number) => Math.round(n * 100) / 100;

/** What the simulated world knows that a subscription object needs besides the subscription. */
export interface SubscriptionContext {
  settings: EventSettings;
  products: ReadonlyMap<string, Product>;
  /** The project's API path prefix, `/v2/projects/{project_id}`. */
  base: string;
  /** The entitlements the subscription's product unlocks (none when omitted). */
  entitlements?: EntitlementResource[];
}

/**
 * Given a subscription, its customer and the world's settings and catalog, returns its `Subscription`
 * object. Revenue is price × the periods billed (each cycle after a trial); `ends_at` is the period
 * end once auto-renew is off or it expired; `entitlements` are the ones its product unlocks.
 *
 * @example
 * toSubscriptionResource(sub, customer, { settings, products, base: '/v2/projects/proj1' }).status; // 'active'
 */
export function toSubscriptionResource(sub: SubscriptionState, customer: CustomerState, ctx: SubscriptionContext): SubscriptionResource {
  const product = ctx.products.get(sub.product_id);
  const pending = sub.pending_product_id === null ? undefined : ctx.products.get(sub.pending_product_id);
  // Periods billed: every cycle but the trial one (an estimate when a trial product was bought without its trial).
  const billed = sub.period_type === 'TRIAL' ? 0 : Math.max(1, sub.renewal_number - (product?.trial_period == null ? 0 : 1));
  const gross = cents((product?.price ?? 0) * billed);
  const commission = cents(gross * COMMISSION);
  return {
    object: 'subscription',
    id: sub.id,
    customer_id: customer.id,
    original_customer_id: customer.id,
    product_id: sub.product_id,
    starts_at: sub.original_purchased_at,
    current_period_starts_at: sub.period_start,
    current_period_ends_at: sub.period_end,
    ends_at: sub.status === 'expired' ? (sub.expired_at ?? sub.period_end) : sub.auto_renew ? null : sub.period_end,
    gives_access: sub.status !== 'expired' && sub.status !== 'paused',
    pending_payment: sub.status === 'grace',
    auto_renewal_status: !sub.auto_renew ? 'will_not_renew' : pending !== undefined ? 'will_change_product' : 'will_renew',
    status: STATUS[sub.status] ?? 'unknown',
    total_revenue_in_usd: { currency: 'USD', gross, commission, tax: 0, proceeds: cents(gross - commission) },
    presented_offering_id: sub.presented_offering_id,
    entitlements: { object: 'list', items: ctx.entitlements ?? [], next_page: null, url: `${ctx.base}/subscriptions/${encodeURIComponent(sub.id)}/entitlements` },
    environment: sub.environment === 'PRODUCTION' ? 'production' : 'sandbox',
    store: apiStoreOf(sub.store),
    store_subscription_identifier: sub.transaction_id,
    ownership: 'purchased',
    pending_changes: pending === undefined || !sub.auto_renew ? null : { product: toProductResource(pending, ctx.settings.app_id, 0) },
    country: sub.country_code,
    management_url: null,
  };
}
