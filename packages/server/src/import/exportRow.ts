/**
 * One row of a version 5 export, checked and typed: identifiers by the core's identifier rule,
 * times (`YYYY-MM-DD HH:MM:SS`, UTC) inside the core's instant range, booleans, numbers. A row that
 * fails names the column and why, so the import skips it and reports its line. Pure.
 */
import { identifierProblem, isEpochMs } from '@tenure/core';
import type { ColumnIndex, ExportColumn } from './exportColumns.js';

/** The facts of one transaction the import uses (times in epoch ms, null when empty). */
export interface ExportRow {
  customer_id: string;
  /** `rc_last_seen_app_user_id_alias`, else the original id: what webhooks carry as `app_user_id`. */
  app_user_id: string;
  product_id: string;
  start_time: number;
  end_time: number | null;
  grace_period_end_time: number | null;
  effective_end_time: number | null;
  /** The webhook spelling (`APP_STORE`), from the export's (`app_store`). */
  store: string;
  is_auto_renewable: boolean;
  is_trial_period: boolean;
  is_in_intro_offer_period: boolean;
  is_sandbox: boolean;
  price_in_usd: number | null;
  purchase_price_in_usd: number | null;
  store_transaction_id: string;
  original_store_transaction_id: string;
  refunded_at: number | null;
  unsubscribe_detected_at: number | null;
  billing_issues_detected_at: number | null;
  purchased_currency: string | null;
  price_in_purchased_currency: number | null;
  purchase_price_in_purchased_currency: number | null;
  renewal_number: number;
  is_trial_conversion: boolean;
  updated_at: number | null;
  auto_resume_time: number | null;
  takehome_percentage: number | null;
  tax_percentage: number | null;
  commission_percentage: number | null;
  presented_offering: string | null;
  country: string | null;
}

/** Why a row was skipped: the column and the reason. */
export interface RowProblem {
  field: string;
  message: string;
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:Z|[+]00(?::?00)?)?$/;

/**
 * Given an export time text (`2023-01-01 08:27:06`, UTC; fractions of a second, a `T` and a `Z`
 * are tolerated), returns epoch ms, or null when it is not a real time in the core's range. Pure.
 *
 * @example
 * parseExportTime('2026-01-01 00:00:00'); // 1767225600000
 */
export function parseExportTime(text: string): number | null {
  const m = TIME.exec(text);
  if (m === null) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const back = new Date(t);
  // Date.UTC rolls 2026-02-30 over to March: a date that does not exist is refused.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return isEpochMs(t) ? t : null;
}

/** Export store names (lower case) to the webhook's `store` values. */
const STORE_BY_EXPORT: Readonly<Record<string, string>> = {
  app_store: 'APP_STORE',
  mac_app_store: 'MAC_APP_STORE',
  play_store: 'PLAY_STORE',
  amazon: 'AMAZON',
  stripe: 'STRIPE',
  promotional: 'PROMOTIONAL',
  rc_billing: 'RC_BILLING',
  roku: 'ROKU',
  paddle: 'PADDLE',
  test_store: 'TEST_STORE',
};

class Bad extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

/**
 * Given a record (the cells of one CSV line) and the header's column index, returns the typed row
 * or the first problem, naming the column. Pure.
 *
 * @example
 * const r = parseExportRow(cells, index);
 * if (!r.ok) console.log(`${r.error.field}: ${r.error.message}`);
 */
export function parseExportRow(cells: readonly string[], index: ColumnIndex): { ok: true; value: ExportRow } | { ok: false; error: RowProblem } {
  const cell = (c: ExportColumn): string => {
    const i = index[c];
    return i === undefined ? '' : (cells[i] ?? '');
  };
  const id = (c: ExportColumn): string => {
    const v = cell(c);
    const problem = identifierProblem(v);
    if (problem !== null) throw new Bad(c, problem);
    return v;
  };
  const text = (c: ExportColumn): string | null => (cell(c) === '' ? null : cell(c));
  const time = (c: ExportColumn): number | null => {
    const v = cell(c);
    if (v === '') return null;
    const t = parseExportTime(v);
    if (t === null) throw new Bad(c, `Expected a UTC time "YYYY-MM-DD HH:MM:SS" from 2000 to 2099, got "${v.slice(0, 40)}"`);
    return t;
  };
  const bool = (c: ExportColumn): boolean => {
    const v = cell(c).toLowerCase();
    if (v === 'true' || v === 't') return true;
    if (v === 'false' || v === 'f') return false;
    throw new Bad(c, `Expected true or false, got "${cell(c).slice(0, 40)}"`);
  };
  const num = (c: ExportColumn): number | null => {
    const v = cell(c);
    if (v === '') return null;
    const n = Number(v);
    if (!Number.isFinite(n) || v.trim() !== v) throw new Bad(c, `Expected a number, got "${v.slice(0, 40)}"`);
    return n;
  };
  try {
    const customer = id('rc_original_app_user_id');
    const alias = cell('rc_last_seen_app_user_id_alias') === '' ? customer : id('rc_last_seen_app_user_id_alias');
    const start = time('start_time');
    if (start === null) throw new Bad('start_time', 'Must not be empty');
    const renewalText = cell('renewal_number');
    const renewal = Number(renewalText);
    if (!/^\d{1,9}$/.test(renewalText) || renewal < 1) throw new Bad('renewal_number', `Expected a whole number from 1, got "${renewalText.slice(0, 40)}"`);
    const storeText = cell('store');
    if (storeText === '') throw new Bad('store', 'Must not be empty');
    const autoRenewable = bool('is_auto_renewable');
    const row: ExportRow = {
      customer_id: customer,
      app_user_id: alias,
      product_id: id('product_identifier'),
      start_time: start,
      end_time: time('end_time'),
      grace_period_end_time: time('grace_period_end_time'),
      effective_end_time: time('effective_end_time'),
      store: STORE_BY_EXPORT[storeText.toLowerCase()] ?? storeText.toUpperCase(),
      is_auto_renewable: autoRenewable,
      is_trial_period: bool('is_trial_period'),
      is_in_intro_offer_period: bool('is_in_intro_offer_period'),
      is_sandbox: bool('is_sandbox'),
      price_in_usd: num('price_in_usd'),
      purchase_price_in_usd: num('purchase_price_in_usd'),
      store_transaction_id: id('store_transaction_id'),
      original_store_transaction_id: id('original_store_transaction_id'),
      refunded_at: time('refunded_at'),
      unsubscribe_detected_at: time('unsubscribe_detected_at'),
      billing_issues_detected_at: time('billing_issues_detected_at'),
      purchased_currency: text('purchased_currency'),
      price_in_purchased_currency: num('price_in_purchased_currency'),
      purchase_price_in_purchased_currency: num('purchase_price_in_purchased_currency'),
      renewal_number: renewal,
      is_trial_conversion: bool('is_trial_conversion'),
      updated_at: time('updated_at'),
      auto_resume_time: time('auto_resume_time'),
      takehome_percentage: num('takehome_percentage'),
      tax_percentage: num('tax_percentage'),
      commission_percentage: num('commission_percentage'),
      presented_offering: text('presented_offering'),
      country: text('country'),
    };
    if (autoRenewable && row.end_time === null) throw new Bad('end_time', 'Must not be empty for an auto-renewable subscription');
    return { ok: true, value: row };
  } catch (error) {
    if (error instanceof Bad) return { ok: false, error: { field: error.field, message: error.message } };
    throw error;
  }
}
