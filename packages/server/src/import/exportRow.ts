/**
 * One row of a version 5 export, checked and typed: identifiers by the core's identifier rule,
 * times (`YYYY-MM-DD HH:MM:SS`, UTC) inside the core's instant range, booleans, numbers. A row that
 * fails names the column and why, so the import skips it and reports its line. Pure.
 */
import { daysInMonth, identifierProblem, isEpochMs, MAX_ID_BYTES, utf8Length, type Duration } from '@tenure/core';
import { EVENT_ID_OVERHEAD } from './deriveEvents.js';
import type { ColumnIndex, ExportColumn } from './exportColumns.js';
import { productDurationOf } from './rowExtension.js';

/** The facts of one transaction the import uses (times in epoch ms, null when empty). */
export interface ExportRow {
  customer_id: string;
  /** `rc_last_seen_app_user_id_alias`, else the original id: what webhooks carry as `app_user_id`. */
  app_user_id: string;
  product_id: string;
  /**
   * `product_duration`, the product's standard period (ISO 8601, `P1M`), when the cell holds one;
   * null when it is empty or not a duration (the row is imported as before, nothing derived from it).
   */
  product_duration: Duration | null;
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

/** The number written by `count` ASCII digits of `text` from `at`, or -1 when one is not a digit. */
function digitsAt(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** Epoch ms of checked fields, or null when the date does not exist or is outside the core's range. */
function utcTime(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number | null {
  // Date.UTC would roll 2026-02-30 over to March: a date that does not exist is refused instead.
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  return isEpochMs(t) ? t : null;
}

/**
 * Given an export time text (`2023-01-01 08:27:06`, UTC; fractions of a second, a `T` and a `Z`
 * are tolerated), returns epoch ms, or null when it is not a real time in the core's range. Pure.
 *
 * @example
 * parseExportTime('2026-01-01 00:00:00'); // 1767225600000
 */
export function parseExportTime(text: string): number | null {
  // The export's own format, read digit by digit (every row has several); anything else by the pattern.
  if (text.length === 19 && text[4] === '-' && text[7] === '-' && (text[10] === ' ' || text[10] === 'T') && text[13] === ':' && text[16] === ':') {
    const y = digitsAt(text, 0, 4);
    const mo = digitsAt(text, 5, 2);
    const d = digitsAt(text, 8, 2);
    const h = digitsAt(text, 11, 2);
    const mi = digitsAt(text, 14, 2);
    const s = digitsAt(text, 17, 2);
    return y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || s < 0 ? null : utcTime(y, mo, d, h, mi, s, 0);
  }
  const m = TIME.exec(text);
  if (m === null) return null;
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  return utcTime(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms);
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

// The cell readers: module functions, not closures made per row (a 1 M-row import calls them ~30 M times).

type Cells = readonly string[];

const cell = (cells: Cells, index: ColumnIndex, c: ExportColumn): string => {
  const i = index[c];
  return i === undefined ? '' : (cells[i] ?? '');
};

function id(cells: Cells, index: ColumnIndex, c: ExportColumn): string {
  const v = cell(cells, index, c);
  const problem = identifierProblem(v);
  if (problem !== null) throw new Bad(c, problem);
  return v;
}

/** Event ids are `export:<store_transaction_id>:<kind>`: the row is refused when one would not fit. */
function transactionId(cells: Cells, index: ColumnIndex): string {
  const v = id(cells, index, 'store_transaction_id');
  if (utf8Length(v) > MAX_ID_BYTES - EVENT_ID_OVERHEAD) {
    throw new Bad('store_transaction_id', `Must be at most ${MAX_ID_BYTES - EVENT_ID_OVERHEAD} bytes of UTF-8 (the import's event ids add ${EVENT_ID_OVERHEAD})`);
  }
  return v;
}

function text(cells: Cells, index: ColumnIndex, c: ExportColumn): string | null {
  const v = cell(cells, index, c);
  return v === '' ? null : v;
}

function time(cells: Cells, index: ColumnIndex, c: ExportColumn): number | null {
  const v = cell(cells, index, c);
  if (v === '') return null;
  const t = parseExportTime(v);
  if (t === null) throw new Bad(c, `Expected a UTC time "YYYY-MM-DD HH:MM:SS" from 2000 to 2099, got "${v.slice(0, 40)}"`);
  return t;
}

/** `product_duration` when it is an ISO 8601 duration; null when empty or not one (informational: never a reason to skip a row). */
const duration = (cells: Cells, index: ColumnIndex): Duration | null => productDurationOf(cell(cells, index, 'product_duration'));

function bool(cells: Cells, index: ColumnIndex, c: ExportColumn): boolean {
  const v = cell(cells, index, c);
  if (v === 'true' || v === 'false') return v === 'true';
  const lower = v.toLowerCase();
  if (lower === 'true' || lower === 't') return true;
  if (lower === 'false' || lower === 'f') return false;
  throw new Bad(c, `Expected true or false, got "${v.slice(0, 40)}"`);
}

function num(cells: Cells, index: ColumnIndex, c: ExportColumn): number | null {
  const v = cell(cells, index, c);
  if (v === '') return null;
  const n = Number(v);
  if (!Number.isFinite(n) || v.trim() !== v) throw new Bad(c, `Expected a number, got "${v.slice(0, 40)}"`);
  return n;
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
  try {
    const customer = id(cells, index, 'rc_original_app_user_id');
    const alias = cell(cells, index, 'rc_last_seen_app_user_id_alias') === '' ? customer : id(cells, index, 'rc_last_seen_app_user_id_alias');
    const start = time(cells, index, 'start_time');
    if (start === null) throw new Bad('start_time', 'Must not be empty');
    const renewalText = cell(cells, index, 'renewal_number');
    const renewal = Number(renewalText);
    if (!/^\d{1,9}$/.test(renewalText) || renewal < 1) throw new Bad('renewal_number', `Expected a whole number from 1, got "${renewalText.slice(0, 40)}"`);
    const storeText = cell(cells, index, 'store');
    if (storeText === '') throw new Bad('store', 'Must not be empty');
    const autoRenewable = bool(cells, index, 'is_auto_renewable');
    const row: ExportRow = {
      customer_id: customer,
      app_user_id: alias,
      product_id: id(cells, index, 'product_identifier'),
      product_duration: duration(cells, index),
      start_time: start,
      end_time: time(cells, index, 'end_time'),
      grace_period_end_time: time(cells, index, 'grace_period_end_time'),
      effective_end_time: time(cells, index, 'effective_end_time'),
      store: STORE_BY_EXPORT[storeText.toLowerCase()] ?? storeText.toUpperCase(),
      is_auto_renewable: autoRenewable,
      is_trial_period: bool(cells, index, 'is_trial_period'),
      is_in_intro_offer_period: bool(cells, index, 'is_in_intro_offer_period'),
      is_sandbox: bool(cells, index, 'is_sandbox'),
      price_in_usd: num(cells, index, 'price_in_usd'),
      purchase_price_in_usd: num(cells, index, 'purchase_price_in_usd'),
      store_transaction_id: transactionId(cells, index),
      original_store_transaction_id: id(cells, index, 'original_store_transaction_id'),
      refunded_at: time(cells, index, 'refunded_at'),
      unsubscribe_detected_at: time(cells, index, 'unsubscribe_detected_at'),
      billing_issues_detected_at: time(cells, index, 'billing_issues_detected_at'),
      purchased_currency: text(cells, index, 'purchased_currency'),
      price_in_purchased_currency: num(cells, index, 'price_in_purchased_currency'),
      purchase_price_in_purchased_currency: num(cells, index, 'purchase_price_in_purchased_currency'),
      renewal_number: renewal,
      is_trial_conversion: bool(cells, index, 'is_trial_conversion'),
      updated_at: time(cells, index, 'updated_at'),
      auto_resume_time: time(cells, index, 'auto_resume_time'),
      takehome_percentage: num(cells, index, 'takehome_percentage'),
      tax_percentage: num(cells, index, 'tax_percentage'),
      commission_percentage: num(cells, index, 'commission_percentage'),
      presented_offering: text(cells, index, 'presented_offering'),
      country: text(cells, index, 'country'),
    };
    if (autoRenewable && row.end_time === null) throw new Bad('end_time', 'Must not be empty for an auto-renewable subscription');
    return { ok: true, value: row };
  } catch (error) {
    if (error instanceof Bad) return { ok: false, error: { field: error.field, message: error.message } };
    throw error;
  }
}
