/**
 * API v1's customer info (the official `Subscriber` object): what the SDKs' `getCustomerInfo` reads
 * and what most backends check entitlements with. A view of the one world: subscriptions and one-time
 * purchases of every store, grants of API v1 and v2 (as `rc_promo_…` promotional subscriptions), the
 * entitlements they unlock (expired ones included, each from the purchase reaching furthest), and
 * attributes for secret keys only.
 */
import type { Product, CustomerState, SubscriptionState, World } from '../machine/world.js';
import { attributesOf } from '../machine/attributes.js';
import { grantedTo } from '../machine/grantedEntitlements.js';
import { pmapGet } from '../machine/persistentMap.js';
import { isoV1, isoV1OrNull } from './v1Dates.js';

/** Where a store's customers manage their subscriptions (null: no page the simulator knows). */
const MANAGEMENT_URLS: Record<string, string> = {
  APP_STORE: 'https://apps.apple.com/account/subscriptions',
  MAC_APP_STORE: 'https://apps.apple.com/account/subscriptions',
  PLAY_STORE: 'https://play.google.com/store/account/subscriptions',
};

/**
 * Given a webhook store, returns API v1's name for it: the same in lower case (`APP_STORE` →
 * `app_store`, `TEST_STORE` → `test_store`, `PROMOTIONAL` → `promotional`).
 *
 * @example
 * v1StoreOf('TEST_STORE'); // 'test_store'
 */
export const v1StoreOf = (store: string): string => store.toLowerCase();

/** When a subscription's access ends (or ended): the period end, cut short by an expiry before it (a refund, a failed charge). */
export const accessEndOf = (sub: SubscriptionState): number =>
  sub.status === 'expired' && sub.expired_at !== null ? Math.min(sub.period_end, sub.expired_at) : sub.period_end;

/** One entry of `subscriber.entitlements`. */
export interface EntitlementInfo {
  expires_date: string | null;
  grace_period_expires_date: string | null;
  product_identifier: string;
  purchase_date: string;
  product_plan_identifier: null;
}

/** What a customer info request may see: attributes for secret keys only. */
export interface SubscriberInfoOptions {
  secret: boolean;
}

const priceOf = (product: Product | undefined, free: boolean) => ({ amount: free ? 0 : (product?.price ?? 0), currency: product?.currency ?? 'USD' });

function subscriptionInfo(world: World, sub: SubscriptionState) {
  const product = world.products.get(sub.product_id);
  const failed = sub.failed_at !== null && (sub.status === 'grace' || sub.status === 'expired');
  return {
    auto_resume_date: isoV1OrNull(sub.auto_resume_at),
    billing_issues_detected_at: failed ? isoV1OrNull(sub.failed_at) : null,
    display_name: product?.display_name ?? sub.product_id,
    expires_date: isoV1(accessEndOf(sub)),
    grace_period_expires_date: isoV1OrNull(sub.grace_expires_at),
    is_sandbox: sub.environment === 'SANDBOX',
    original_purchase_date: isoV1(sub.original_purchased_at),
    ownership_type: 'PURCHASED',
    period_type: sub.period_type === 'TRIAL' ? 'trial' : 'normal',
    price: priceOf(product, sub.period_type === 'TRIAL'),
    purchase_date: isoV1(sub.period_start),
    refunded_at: isoV1OrNull(sub.refund?.at),
    store: v1StoreOf(sub.store),
    store_transaction_id: sub.transaction_id,
    unsubscribe_detected_at: sub.auto_renew ? null : isoV1OrNull(sub.unsubscribed_at),
    management_url: sub.status === 'expired' ? null : (MANAGEMENT_URLS[sub.store] ?? null),
    product_plan_identifier: null,
  };
}

/** What unlocks an entitlement, as instants: formatted only for the purchase kept. */
interface EntitlementSource {
  /** When access ends (the grace end during a grace period); null: no end. */
  until: number | null;
  grace: number | null;
  product_id: string;
  purchased_at: number;
}

/** Keeps, per entitlement, the purchase reaching furthest (no end beats any end). */
function addEntitlement(into: Map<string, EntitlementSource>, key: string, source: EntitlementSource) {
  const held = into.get(key);
  if (held !== undefined && (held.until === null || (source.until !== null && source.until <= held.until))) return;
  into.set(key, source);
}

const entitlementInfo = (e: EntitlementSource): EntitlementInfo => ({
  grace_period_expires_date: isoV1OrNull(e.grace),
  product_identifier: e.product_id,
  purchase_date: isoV1(e.purchased_at),
  expires_date: isoV1OrNull(e.until),
  product_plan_identifier: null,
});

/**
 * Given a world, a customer and what the caller may see, returns API v1's customer info body
 * (`request_date` is the virtual clock).
 *
 * @example
 * toSubscriberInfo(world, customer, { secret: false }).subscriber.entitlements.pro?.expires_date;
 */
export function toSubscriberInfo(world: World, customer: CustomerState, options: SubscriberInfoOptions) {
  const entitlements = new Map<string, EntitlementSource>();
  const subscriptions: Record<string, ReturnType<typeof subscriptionInfo> | ReturnType<typeof grantInfo>> = {};
  const latest = new Map<string, SubscriptionState>();
  for (const sub of customer.subscriptions) {
    const held = latest.get(sub.product_id);
    if (held === undefined || sub.original_purchased_at >= held.original_purchased_at) latest.set(sub.product_id, sub);
  }
  let managementUrl: string | null = null;
  let furthest = -Infinity;
  for (const sub of latest.values()) {
    const info = subscriptionInfo(world, sub);
    subscriptions[sub.product_id] = info;
    const until = accessEndOf(sub);
    if (info.management_url !== null && until > furthest) [managementUrl, furthest] = [info.management_url, until];
  }
  // Every subscription unlocks its entitlements (a transfer can bring a second one of a product).
  for (const sub of customer.subscriptions) {
    const until = accessEndOf(sub);
    const grace = sub.status === 'grace' ? sub.grace_expires_at : null;
    for (const key of world.products.get(sub.product_id)?.entitlement_ids ?? []) {
      addEntitlement(entitlements, key, { until: grace ?? until, grace, product_id: sub.product_id, purchased_at: sub.period_start });
    }
  }
  const nonSubscriptions: Record<string, ReturnType<typeof purchaseInfo>[]> = {};
  for (const p of customer.purchases) {
    if (p.refunded) continue;
    (nonSubscriptions[p.product_id] ??= []).push(purchaseInfo(world, p));
    for (const key of world.products.get(p.product_id)?.entitlement_ids ?? []) {
      addEntitlement(entitlements, key, { until: null, grace: null, product_id: p.product_id, purchased_at: p.purchased_at });
    }
  }
  for (const grant of grantedTo(world, customer)) {
    const key = pmapGet(world.api.entitlements, grant.entitlement_id)?.lookup_key;
    if (key === undefined) continue;
    subscriptions[grant.product_id] = grantInfo(grant);
    addEntitlement(entitlements, key, { until: grant.expires_at, grace: null, product_id: grant.product_id, purchased_at: grant.granted_at });
  }
  const subscriber = {
    entitlements: Object.fromEntries(Array.from(entitlements, ([key, source]) => [key, entitlementInfo(source)])),
    first_seen: isoV1(customer.first_seen_at),
    last_seen: isoV1(customer.last_seen_at),
    management_url: managementUrl,
    non_subscriptions: nonSubscriptions,
    original_app_user_id: customer.id,
    original_application_version: null,
    original_purchase_date: null,
    other_purchases: {},
    subscriptions,
    ...(options.secret ? { subscriber_attributes: attributeInfo(world, customer) } : {}),
  };
  return { request_date: isoV1(world.now), request_date_ms: world.now, subscriber };
}

function purchaseInfo(world: World, p: CustomerState['purchases'][number]) {
  const product = world.products.get(p.product_id);
  return {
    id: p.transaction_id,
    display_name: product?.display_name ?? p.product_id,
    is_sandbox: p.environment === 'SANDBOX',
    original_purchase_date: isoV1(p.purchased_at),
    price: priceOf(product, false),
    purchase_date: isoV1(p.purchased_at),
    store: v1StoreOf(p.store),
    store_transaction_id: p.transaction_id,
  };
}

function grantInfo(grant: ReturnType<typeof grantedTo>[number]) {
  return {
    auto_resume_date: null,
    billing_issues_detected_at: null,
    expires_date: isoV1OrNull(grant.expires_at),
    grace_period_expires_date: null,
    is_sandbox: false,
    original_purchase_date: isoV1(grant.granted_at),
    ownership_type: 'PURCHASED',
    period_type: 'normal',
    price: { amount: 0, currency: 'USD' },
    purchase_date: isoV1(grant.granted_at),
    refunded_at: null,
    store: 'promotional',
    store_transaction_id: grant.transaction_id,
    unsubscribe_detected_at: null,
    management_url: null,
    product_plan_identifier: null,
  };
}

function attributeInfo(world: World, customer: CustomerState): Record<string, { value: string; updated_at_ms: number }> {
  const out: Record<string, { value: string; updated_at_ms: number }> = {};
  for (const [name, a] of attributesOf(world, customer.project_id, customer.id)) out[name] = { value: a.value, updated_at_ms: a.updated_at };
  return out;
}
