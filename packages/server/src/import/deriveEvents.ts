/**
 * From export rows to webhook events in RevenueCat's real format, so an imported subscriber is
 * built by the very reducer webhooks go through, and later webhooks fold on top of it.
 *
 * Every event id is derived from the transaction (`export:<store_transaction_id>:<kind>`): the same
 * row imported again yields the same ids, and the store drops them as duplicates, so re-importing a
 * file (or the next day's) double-counts nothing. Events that follow from one row alone are emitted
 * as the row is read; the ones that depend on the row being the latest of its subscription
 * (expiration, refund) are emitted by `finish`, which keeps one row per subscription, not one
 * per transaction. Pure (no I/O, no clock: the export's instant is a parameter).
 */
import type { HandledEvent } from '@tenure/core';
import type { ExportRow } from './exportRow.js';
import { extendedFrom } from './rowExtension.js';

/**
 * A webhook event body (`event` of `{ api_version, event }`) as the core's `parseWebhook` returns it
 * for a handled type. Derived events are not parsed again: every field comes from a row
 * `parseExportRow` checked (identifiers, instants in range, finite numbers), and a property test
 * (`test/import/deriveEvents.property.test.ts`) holds that every event derived from any row it
 * accepts passes `parseWebhook` and equals what it returns.
 */
export type DerivedEvent = HandledEvent;

/** The kinds an event id is made of (`export:<store_transaction_id>:<kind>`), one per derived event of a row. */
const EVENT_KINDS = [
  'INITIAL_PURCHASE',
  'RENEWAL',
  'NON_RENEWING_PURCHASE',
  'CANCELLATION:UNSUBSCRIBE',
  'CANCELLATION:CUSTOMER_SUPPORT',
  'CANCELLATION:BILLING_ERROR',
  'SUBSCRIPTION_PAUSED',
  'SUBSCRIPTION_EXTENDED',
  'BILLING_ISSUE',
  'EXPIRATION',
] as const;
type EventKind = (typeof EVENT_KINDS)[number];

/** Bytes an event id adds to `store_transaction_id` at most: the row check keeps every derived id within `MAX_ID_BYTES`. */
export const EVENT_ID_OVERHEAD = 'export:'.length + 1 + Math.max(...EVENT_KINDS.map((k) => k.length));

/** An event under construction: the fields of one row, mutable until it is handed out. */
type Draft = Record<string, unknown> & { type: string; id: string; app_user_id: string; event_timestamp_ms: number };

/** The fields every event of one row carries: one object per event, extra fields assigned, not spread. */
function baseFields(row: ExportRow, type: HandledEvent['type'], kind: EventKind, at: number): Draft {
  const event: Draft = {
    type,
    id: `export:${row.store_transaction_id}:${kind}`,
    event_timestamp_ms: at,
    app_user_id: row.app_user_id,
    original_app_user_id: row.customer_id,
    aliases: row.app_user_id === row.customer_id ? [row.customer_id] : [row.customer_id, row.app_user_id],
    product_id: row.product_id,
    period_type: row.is_trial_period ? 'TRIAL' : row.is_in_intro_offer_period ? 'INTRO' : 'NORMAL',
    purchased_at_ms: row.start_time,
    expiration_at_ms: row.end_time,
    store: row.store,
    environment: row.is_sandbox ? 'SANDBOX' : 'PRODUCTION',
    transaction_id: row.store_transaction_id,
    original_transaction_id: row.original_store_transaction_id,
    presented_offering_id: row.presented_offering,
    // The price the webhook carried when the transaction was made: gross (a later refund sets the
    // net price to 0, and is its own event with a negative price).
    price: row.purchase_price_in_usd ?? row.price_in_usd,
    currency: row.purchased_currency,
    price_in_purchased_currency: row.purchase_price_in_purchased_currency ?? row.price_in_purchased_currency,
    tax_percentage: row.tax_percentage,
    commission_percentage: row.commission_percentage,
    renewal_number: row.renewal_number,
  };
  if (row.takehome_percentage !== null) event['takehome_percentage'] = row.takehome_percentage;
  if (row.country !== null) event['country_code'] = row.country;
  return event;
}

/** The drafts handed out as the handled events they are (see `DerivedEvent`). */
const handled = (drafts: Draft[]): DerivedEvent[] => drafts as unknown as DerivedEvent[];

/** The refund of a row: CANCELLATION `CUSTOMER_SUPPORT` at `refunded_at`, the gross price negated. */
function refundOf(row: ExportRow): Draft {
  const gross = row.purchase_price_in_usd ?? row.price_in_usd;
  const grossLocal = row.purchase_price_in_purchased_currency ?? row.price_in_purchased_currency;
  const event = baseFields(row, 'CANCELLATION', 'CANCELLATION:CUSTOMER_SUPPORT', row.refunded_at ?? row.start_time);
  event['cancel_reason'] = 'CUSTOMER_SUPPORT';
  event['price'] = gross === null ? null : -Math.abs(gross);
  event['price_in_purchased_currency'] = grossLocal === null ? null : -Math.abs(grossLocal);
  return event;
}

/** A draft with one more field. */
function withField(event: Draft, field: string, value: unknown): Draft {
  event[field] = value;
  return event;
}

/**
 * The extension of a row whose period was extended (`extendedFrom`): SUBSCRIPTION_EXTENDED to its
 * `end_time`. The export does not say when it was granted, only the row's last change
 * (`updated_at`), which the extension made or which came after it (an opt-out, a plan change that
 * started the next transaction): so just before that change (one millisecond), never before the
 * purchase nor after the standard period.
 */
function extensionOf(row: ExportRow, standardEnd: number): Draft {
  const at = Math.max(Math.min((row.updated_at ?? row.start_time) - 1, standardEnd), row.start_time);
  return baseFields(row, 'SUBSCRIPTION_EXTENDED', 'SUBSCRIPTION_EXTENDED', at);
}

/**
 * Given one row, returns the events that follow from it alone: the purchase (INITIAL_PURCHASE for
 * renewal number 1, else RENEWAL with `is_trial_conversion`; NON_RENEWING_PURCHASE for a product
 * that does not renew, and its refund as CANCELLATION `CUSTOMER_SUPPORT`), an extension
 * (`extendedFrom`: the purchase to the standard period's end, SUBSCRIPTION_EXTENDED to the row's), a pause
 * (SUBSCRIPTION_PAUSED with `auto_resume_at_ms`), the opt-out (CANCELLATION `UNSUBSCRIBE` at `unsubscribe_detected_at`) and a
 * billing failure (BILLING_ISSUE with the grace end, and CANCELLATION `BILLING_ERROR`, at
 * `billing_issues_detected_at`, as the billing service sends them together). Pure.
 *
 * @example
 * eventsOfRow(row).map((e) => e.type); // ['RENEWAL']
 */
export function eventsOfRow(row: ExportRow): DerivedEvent[] {
  if (!row.is_auto_renewable) {
    const purchase = baseFields(row, 'NON_RENEWING_PURCHASE', 'NON_RENEWING_PURCHASE', row.start_time);
    // A one-time purchase is its own latest transaction: its refund is the CANCELLATION the
    // billing service sends for a refunded non-renewing purchase.
    return handled(row.refunded_at === null ? [purchase] : [purchase, refundOf(row)]);
  }
  const out: Draft[] = [];
  const purchase =
    row.renewal_number === 1
      ? baseFields(row, 'INITIAL_PURCHASE', 'INITIAL_PURCHASE', row.start_time)
      : withField(baseFields(row, 'RENEWAL', 'RENEWAL', row.start_time), 'is_trial_conversion', row.is_trial_conversion);
  out.push(purchase);
  const standardEnd = extendedFrom(row);
  if (row.unsubscribe_detected_at !== null) {
    out.push(withField(baseFields(row, 'CANCELLATION', 'CANCELLATION:UNSUBSCRIBE', row.unsubscribe_detected_at), 'cancel_reason', 'UNSUBSCRIBE'));
  }
  if (row.auto_resume_time !== null) {
    // A pause is a fact of its period whether or not a later one resumed it. The export does not
    // say when it was asked for; the row's last change (capped to the period's end) is the closest.
    const end = Math.max(row.effective_end_time ?? row.end_time ?? row.start_time, row.start_time);
    const at = Math.max(Math.min(row.updated_at ?? row.start_time, end), row.start_time);
    out.push(withField(baseFields(row, 'SUBSCRIPTION_PAUSED', 'SUBSCRIPTION_PAUSED', at), 'auto_resume_at_ms', row.auto_resume_time));
  }
  if (row.billing_issues_detected_at !== null) {
    const at = row.billing_issues_detected_at;
    out.push(withField(baseFields(row, 'BILLING_ISSUE', 'BILLING_ISSUE', at), 'grace_period_expiration_at_ms', row.grace_period_end_time));
    out.push(withField(baseFields(row, 'CANCELLATION', 'CANCELLATION:BILLING_ERROR', at), 'cancel_reason', 'BILLING_ERROR'));
  }
  if (standardEnd !== null) {
    // The purchase bought the standard period, and what the billing service sent before the
    // extension named that end; the extension (at the row's last change) moved it later.
    const extension = extensionOf(row, standardEnd);
    for (const event of out) if (event === purchase || event.event_timestamp_ms < extension.event_timestamp_ms) event['expiration_at_ms'] = standardEnd;
    out.push(extension);
  }
  return handled(out);
}

/** Why the latest transaction of a subscription ended (the EXPIRATION's `expiration_reason`). */
function expirationReason(row: ExportRow): string {
  if (row.refunded_at !== null) return 'CUSTOMER_SUPPORT';
  // An opt-out still on the row wins over a planned pause: a subscription set not to renew does
  // not resume.
  if (row.unsubscribe_detected_at !== null) return 'UNSUBSCRIBE';
  // A pause takes effect at the period's end, exactly: an end before or after it is something else
  // (revoked before, or ended while paused).
  if (row.auto_resume_time !== null && row.effective_end_time !== null && row.effective_end_time === row.end_time) return 'SUBSCRIPTION_PAUSED';
  if (row.billing_issues_detected_at !== null) return 'BILLING_ERROR';
  return 'UNKNOWN';
}

/**
 * Given the latest row of a subscription and the export's instant, returns the events that hold only
 * for the latest period: a refund (CANCELLATION `CUSTOMER_SUPPORT` at `refunded_at`, negative
 * price: the billing service sends it only when the latest period was refunded) and the end (EXPIRATION at `effective_end_time`,
 * which includes refunds and grace periods, when it is at or before `asOf`). Pure.
 *
 * @example
 * eventsOfLatestRow(row, Date.parse('2026-03-01T00:00:00Z')).map((e) => e.type); // ['EXPIRATION']
 */
export function eventsOfLatestRow(row: ExportRow, asOf: number): DerivedEvent[] {
  const out: Draft[] = [];
  const end = Math.max(row.effective_end_time ?? row.end_time ?? row.start_time, row.start_time);
  if (row.refunded_at !== null) out.push(refundOf(row));
  if (end <= asOf) out.push(withField(baseFields(row, 'EXPIRATION', 'EXPIRATION', end), 'expiration_reason', expirationReason(row)));
  return handled(out);
}

/** Whether `a` is a later transaction of its subscription than `b`. */
const isLaterRow = (a: ExportRow, b: ExportRow): boolean =>
  a.start_time !== b.start_time ? a.start_time > b.start_time : a.renewal_number !== b.renewal_number ? a.renewal_number > b.renewal_number : a.store_transaction_id > b.store_transaction_id;

/** Derives events from rows read one at a time. */
export interface ExportDeriver {
  /** The events of one row (see `eventsOfRow`); remembers the row if it is its subscription's latest. */
  add(row: ExportRow): DerivedEvent[];
  /** The events of every subscription's latest row at `asOf` (see `eventsOfLatestRow`). */
  finish(asOf: number): DerivedEvent[];
  /** Every subscription's latest row, for `eventsOfLatestRow` one at a time (what `finish` does at once). */
  latestRows(): Iterable<ExportRow>;
  /** Subscriptions seen (auto-renewable, by customer and `original_store_transaction_id`). */
  subscriptions(): number;
  /** Customers seen (`rc_original_app_user_id`). */
  customers(): number;
  /** The latest `updated_at` (else `start_time`) seen: the export's instant when none is given. */
  latestUpdate(): number | null;
}

/**
 * Returns a deriver that groups rows by customer and `original_store_transaction_id`, keeping one
 * row per subscription (memory grows with subscriptions, not transactions). Pure: no I/O.
 *
 * @example
 * const deriver = createExportDeriver();
 * for (const row of rows) events.push(...deriver.add(row));
 * events.push(...deriver.finish(deriver.latestUpdate() ?? 0));
 */
export function createExportDeriver(): ExportDeriver {
  // One map for every subscription, keyed by customer and original_store_transaction_id with the
  // customer's length in front: no id can forge another pair, and no map per customer.
  const latest = new Map<string, ExportRow>();
  const customers = new Set<string>();
  let newest: number | null = null;
  return {
    add(row) {
      customers.add(row.customer_id);
      const touched = row.updated_at ?? row.start_time;
      if (newest === null || touched > newest) newest = touched;
      if (row.is_auto_renewable) {
        const key = `${row.customer_id.length}:${row.customer_id}${row.original_store_transaction_id}`;
        const seen = latest.get(key);
        if (seen === undefined || isLaterRow(row, seen)) latest.set(key, row);
      }
      return eventsOfRow(row);
    },
    finish(asOf) {
      const out: DerivedEvent[] = [];
      for (const row of latest.values()) out.push(...eventsOfLatestRow(row, asOf));
      return out;
    },
    latestRows: () => latest.values(),
    subscriptions: () => latest.size,
    customers: () => customers.size,
    latestUpdate: () => newest,
  };
}
