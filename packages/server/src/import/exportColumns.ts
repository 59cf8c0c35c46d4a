/**
 * The columns of RevenueCat's scheduled data export, version 5 (one row per transaction), and the
 * header check that refuses a file that is not one before anything is written.
 */

import { EXPORT_V5_COLUMNS, type ExportColumn } from '@tenure/core';

export { EXPORT_V5_COLUMNS, type ExportColumn };

/**
 * The columns the import reads: a file without any of them is not a version 5 export (the others,
 * such as attributes and experiments, are not needed to derive a subscriber and may be deselected).
 */
export const REQUIRED_COLUMNS = [
  'rc_original_app_user_id',
  'rc_last_seen_app_user_id_alias',
  'product_identifier',
  'start_time',
  'end_time',
  'grace_period_end_time',
  'effective_end_time',
  'store',
  'is_auto_renewable',
  'is_trial_period',
  'is_in_intro_offer_period',
  'is_sandbox',
  'price_in_usd',
  'purchase_price_in_usd',
  'store_transaction_id',
  'original_store_transaction_id',
  'refunded_at',
  'unsubscribe_detected_at',
  'billing_issues_detected_at',
  'purchased_currency',
  'price_in_purchased_currency',
  'purchase_price_in_purchased_currency',
  'renewal_number',
  'is_trial_conversion',
  'updated_at',
  'auto_resume_time',
] as const satisfies readonly ExportColumn[];

/** A required column of the import. */
export type RequiredColumn = (typeof REQUIRED_COLUMNS)[number];

/** Where each column the import reads sits in a row (optional ones may be absent). */
export type ColumnIndex = Readonly<Record<RequiredColumn, number>> & Readonly<Partial<Record<ExportColumn, number>>>;

/** Why a header is not that of a version 5 export. */
export interface HeaderProblem {
  missing: RequiredColumn[];
  /** A guess at the cause, e.g. "the header looks ';'-delimited", or null. */
  hint: string | null;
  message: string;
}

const OTHER_DELIMITERS = [';', '\t', '|'] as const;

/**
 * Given the first record of a file, returns where each column sits, or the problem naming every
 * missing column (and a wrong delimiter when the header looks like one). Pure.
 *
 * @example
 * checkExportHeader(['rc_original_app_user_id;store']); // { ok: false, ... hint: "the header looks ';'-delimited" }
 */
export function checkExportHeader(header: readonly string[]): { ok: true; value: ColumnIndex } | { ok: false; error: HeaderProblem } {
  const index: Partial<Record<ExportColumn, number>> = {};
  const known = new Set<string>(EXPORT_V5_COLUMNS);
  header.forEach((raw, i) => {
    const name = raw.trim();
    if (known.has(name) && index[name as ExportColumn] === undefined) index[name as ExportColumn] = i;
  });
  const missing = REQUIRED_COLUMNS.filter((c) => index[c] === undefined);
  if (missing.length === 0) return { ok: true, value: index as ColumnIndex };
  const joined = header.join(',');
  const delimiter = OTHER_DELIMITERS.find((d) => joined.includes(d) && joined.split(d).length >= 3);
  const hint = delimiter === undefined ? null : `the header looks ${delimiter === '\t' ? 'tab' : `'${delimiter}'`}-delimited; a version 5 export is comma-delimited`;
  const message = `not a RevenueCat data export (version 5): missing column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}${hint === null ? '' : ` (${hint})`}`;
  return { ok: false, error: { missing, hint, message } };
}
