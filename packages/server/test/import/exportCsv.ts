/** Builds version 5 export files for the import tests: rows with documented defaults, CSV text. */
import { EXPORT_V5_COLUMNS, type ExportColumn } from '../../src/import/exportColumns.js';
import { DAY, T0 } from '../helpers/fixtures.js';

/** An export time: `YYYY-MM-DD HH:MM:SS`, UTC. */
export const exportTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

export type ExportRowInput = Partial<Record<ExportColumn, string>>;

let seq = 0;

/**
 * A monthly App Store subscription's first transaction bought at T0, as the export's documented
 * sample values; `over` replaces any cell (`effective_end_time` follows `end_time` unless given).
 */
export function txRow(over: ExportRowInput = {}): Record<ExportColumn, string> {
  seq += 1;
  const base: Record<ExportColumn, string> = {
    rc_original_app_user_id: 'u1',
    rc_last_seen_app_user_id_alias: 'u1',
    country: 'GB',
    country_source: 'from_sdk',
    product_identifier: 'rc_subscription_monthly',
    product_display_name: 'Monthly $9.99',
    product_duration: 'P1M',
    start_time: exportTime(T0),
    end_time: exportTime(T0 + 30 * DAY),
    grace_period_end_time: '',
    effective_end_time: exportTime(T0 + 30 * DAY),
    store: 'app_store',
    is_auto_renewable: 'true',
    is_trial_period: 'false',
    is_in_intro_offer_period: 'false',
    is_sandbox: 'false',
    price_in_usd: '9.99',
    purchase_price_in_usd: '9.99',
    takehome_percentage: '0.7',
    tax_percentage: '0.1442',
    commission_percentage: '0.15',
    store_transaction_id: `tx${seq}`,
    original_store_transaction_id: 'otx1',
    refunded_at: '',
    unsubscribe_detected_at: '',
    billing_issues_detected_at: '',
    purchased_currency: 'GBP',
    price_in_purchased_currency: '7.99',
    purchase_price_in_purchased_currency: '7.99',
    entitlement_identifiers: '["membership", "full_access"]',
    renewal_number: '1',
    is_trial_conversion: 'false',
    presented_offering: 'Default Offering',
    ownership_type: 'PURCHASED',
    reserved_subscriber_attributes: '{"$ip": {"value": "203.78.120.117", "updated_at_ms": 1672549200}}',
    custom_subscriber_attributes: '{}',
    platform: 'iOS',
    experiment_id: '',
    experiment_variant: '',
    updated_at: exportTime(T0),
    offer: '',
    offer_type: '',
    first_seen_time: exportTime(T0 - DAY),
    auto_resume_time: '',
  };
  // Without a grace period or refund, the effective end is the end: follow an overridden end_time.
  const effective = over.effective_end_time ?? over.end_time ?? base.effective_end_time;
  return { ...base, ...over, effective_end_time: effective };
}

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

/** CSV text (comma-delimited, quoted where needed, `\n` line ends) of rows under `columns`. */
export function toCsv(rows: readonly Partial<Record<ExportColumn, string>>[], columns: readonly string[] = EXPORT_V5_COLUMNS): string {
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((c) => quote((row as Record<string, string>)[c] ?? '')).join(','));
  return `${lines.join('\n')}\n`;
}
