/**
 * The simulator's history as RevenueCat's data export (version 5): one row per store transaction,
 * built from the webhook events the simulator emitted, the way the billing service keeps a
 * transaction's row up to date (a purchase or renewal opens a row; an opt-out, a billing issue, a
 * refund, a pause or the end marks it; `updated_at` is its last change). Pure: no clock, no I/O.
 */
import { DAY_MS, utcDayOf } from '@tenure/core';
import type { ExportColumn } from './exportColumns.js';

/** The fields of a webhook event the export reads (any simulator event fits). */
interface EventFields {
  type: string;
  event_timestamp_ms: number;
  app_user_id?: string | null;
  original_app_user_id?: string | null;
  product_id?: string | null;
  entitlement_ids?: readonly string[] | null;
  period_type?: string | null;
  purchased_at_ms?: number | null;
  expiration_at_ms?: number | null;
  grace_period_expiration_at_ms?: number | null;
  auto_resume_at_ms?: number | null;
  environment?: string | null;
  store?: string | null;
  presented_offering_id?: string | null;
  transaction_id?: string | null;
  original_transaction_id?: string | null;
  price?: number | null;
  currency?: string | null;
  price_in_purchased_currency?: number | null;
  tax_percentage?: number | null;
  commission_percentage?: number | null;
  takehome_percentage?: number | null;
  country_code?: string | null;
  is_trial_conversion?: boolean | null;
  renewal_number?: number | null;
  cancel_reason?: string | null;
}

/** One transaction's row while it is built (times in epoch ms). */
interface TransactionRow {
  customer: string;
  alias: string;
  country: string | null;
  product: string;
  start: number;
  end: number | null;
  grace_end: number | null;
  effective_end: number | null;
  store: string;
  auto_renewable: boolean;
  trial: boolean;
  intro: boolean;
  sandbox: boolean;
  price: number | null;
  gross: number | null;
  takehome: number | null;
  tax: number | null;
  commission: number | null;
  transaction: string;
  original: string;
  refunded_at: number | null;
  unsubscribed_at: number | null;
  billing_issue_at: number | null;
  currency: string | null;
  entitlements: readonly string[] | null;
  renewal_number: number;
  trial_conversion: boolean;
  offering: string | null;
  updated_at: number;
  first_seen: number;
  auto_resume: number | null;
}

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * An export time: `YYYY-MM-DD HH:MM:SS`, UTC (whole seconds, as the billing service writes them).
 * The day from the core's `utcDayOf` and the time of day by arithmetic: the same text as
 * `toISOString`, three times faster (a row has up to seven times; a population writes millions).
 */
export const exportTime = (ms: number): string => {
  const second = Math.floor((ms - Math.floor(ms / DAY_MS) * DAY_MS) / 1000);
  return `${utcDayOf(ms)} ${two(Math.floor(second / 3600))}:${two(Math.floor(second / 60) % 60)}:${two(second % 60)}`;
};

/** An ISO 8601 period as the export writes it (`P1M`); a period given in ms has no standard name. */
const durationOf = (period: string | number | null) => (typeof period === 'string' ? period : '');
const time = (ms: number | null) => (ms === null ? '' : exportTime(ms));
const num = (n: number | null) => (n === null ? '' : String(n));
const bool = (b: boolean) => (b ? 'true' : 'false');

/**
 * Given the webhook bodies a simulator emitted (in order) and optionally its product catalog (for
 * `product_duration`, the standard period of a subscription product), returns the rows of its
 * version 5 export, one per transaction, in the order the transactions were made. Pure.
 *
 * @example
 * const rows = exportRows(sim.events(), sim.world().products);
 * rows[0].store_transaction_id; // the first purchase's transaction id
 */
export function exportRows(
  bodies: readonly { event: object }[],
  products: ReadonlyMap<string, { period: string | number | null }> = new Map(),
): Record<ExportColumn, string>[] {
  const rows = new Map<string, TransactionRow>();
  const firstSeen = new Map<string, number>();
  for (const body of bodies) {
    const e = body.event as EventFields;
    const at = e.event_timestamp_ms;
    const customer = e.original_app_user_id ?? e.app_user_id;
    if (customer === null || customer === undefined) continue;
    if (!firstSeen.has(customer)) firstSeen.set(customer, at);
    const tx = e.transaction_id;
    if (tx === null || tx === undefined) continue;
    if (e.type === 'INITIAL_PURCHASE' || e.type === 'RENEWAL' || e.type === 'NON_RENEWING_PURCHASE') {
      const renewable = e.type !== 'NON_RENEWING_PURCHASE';
      const end = renewable ? (e.expiration_at_ms ?? null) : null;
      rows.set(tx, {
        customer,
        alias: e.app_user_id ?? customer,
        country: e.country_code ?? null,
        product: e.product_id ?? '',
        start: e.purchased_at_ms ?? at,
        end,
        grace_end: null,
        effective_end: end,
        store: (e.store ?? 'TEST_STORE').toLowerCase(),
        auto_renewable: renewable,
        trial: e.period_type === 'TRIAL',
        intro: e.period_type === 'INTRO',
        sandbox: e.environment === 'SANDBOX',
        price: e.price ?? null,
        gross: e.price ?? null,
        takehome: e.takehome_percentage ?? null,
        tax: e.tax_percentage ?? null,
        commission: e.commission_percentage ?? null,
        transaction: tx,
        original: e.original_transaction_id ?? tx,
        refunded_at: null,
        unsubscribed_at: null,
        billing_issue_at: null,
        currency: e.currency ?? null,
        entitlements: e.entitlement_ids ?? null,
        renewal_number: e.renewal_number ?? 1,
        trial_conversion: e.is_trial_conversion === true,
        offering: e.presented_offering_id ?? null,
        updated_at: at,
        first_seen: firstSeen.get(customer) ?? at,
        auto_resume: null,
      });
      continue;
    }
    const row = rows.get(tx);
    if (row === undefined) continue;
    row.updated_at = at;
    switch (e.type) {
      case 'CANCELLATION':
        if (e.cancel_reason === 'CUSTOMER_SUPPORT') {
          // Refunded: the net price drops to 0 (the gross stays), access ends now.
          row.refunded_at = at;
          row.price = 0;
          row.effective_end = at;
        } else if (e.cancel_reason !== 'BILLING_ERROR') row.unsubscribed_at = at;
        break;
      case 'UNCANCELLATION':
        row.unsubscribed_at = null;
        break;
      case 'BILLING_ISSUE':
        row.billing_issue_at = at;
        row.end = e.expiration_at_ms ?? row.end;
        row.grace_end = e.grace_period_expiration_at_ms ?? null;
        row.effective_end = Math.max(row.end ?? at, row.grace_end ?? row.end ?? at);
        break;
      case 'EXPIRATION':
        row.effective_end = at;
        break;
      case 'SUBSCRIPTION_PAUSED':
        row.auto_resume = e.auto_resume_at_ms ?? null;
        break;
      case 'SUBSCRIPTION_EXTENDED':
        row.end = e.expiration_at_ms ?? row.end;
        row.effective_end = row.end;
        break;
      case 'REFUND_REVERSED':
        row.refunded_at = null;
        row.price = row.gross;
        row.effective_end = row.end;
        break;
      default:
        // Product changes take effect with the next transaction; transfers, credits and the rest
        // change no transaction row.
        break;
    }
  }
  return [...rows.values()].map((r) => ({
    rc_original_app_user_id: r.customer,
    rc_last_seen_app_user_id_alias: r.alias,
    country: r.country ?? '',
    country_source: r.country === null ? '' : 'from_sdk',
    product_identifier: r.product,
    product_display_name: '',
    product_duration: r.auto_renewable ? durationOf(products.get(r.product)?.period ?? null) : '',
    start_time: exportTime(r.start),
    end_time: time(r.end),
    grace_period_end_time: time(r.grace_end),
    effective_end_time: time(r.effective_end),
    store: r.store,
    is_auto_renewable: bool(r.auto_renewable),
    is_trial_period: bool(r.trial),
    is_in_intro_offer_period: bool(r.intro),
    is_sandbox: bool(r.sandbox),
    price_in_usd: num(r.price),
    purchase_price_in_usd: num(r.gross),
    takehome_percentage: num(r.takehome),
    tax_percentage: num(r.tax),
    commission_percentage: num(r.commission),
    store_transaction_id: r.transaction,
    original_store_transaction_id: r.original,
    refunded_at: time(r.refunded_at),
    unsubscribe_detected_at: time(r.unsubscribed_at),
    billing_issues_detected_at: time(r.billing_issue_at),
    purchased_currency: r.currency ?? '',
    price_in_purchased_currency: num(r.price),
    purchase_price_in_purchased_currency: num(r.gross),
    entitlement_identifiers: r.entitlements === null ? '' : JSON.stringify(r.entitlements),
    renewal_number: String(r.renewal_number),
    is_trial_conversion: bool(r.trial_conversion),
    presented_offering: r.offering ?? '',
    ownership_type: 'PURCHASED',
    reserved_subscriber_attributes: '',
    custom_subscriber_attributes: '',
    platform: '',
    experiment_id: '',
    experiment_variant: '',
    updated_at: exportTime(r.updated_at),
    offer: '',
    offer_type: '',
    first_seen_time: exportTime(r.first_seen),
    auto_resume_time: time(r.auto_resume),
  }));
}
