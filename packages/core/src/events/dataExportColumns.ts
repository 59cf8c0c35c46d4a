/**
 * The columns of RevenueCat's scheduled data export, version 5 (one row per transaction), in the
 * documented order. One list for both sides of the data export: the simulator writes every column,
 * the retention service's import reads them, so a reader written against the real file reads the
 * simulator's.
 *
 * @example
 * EXPORT_V5_COLUMNS.includes('store_transaction_id'); // true
 */
export const EXPORT_V5_COLUMNS = [
  'rc_original_app_user_id',
  'rc_last_seen_app_user_id_alias',
  'country',
  'country_source',
  'product_identifier',
  'product_display_name',
  'product_duration',
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
  'takehome_percentage',
  'tax_percentage',
  'commission_percentage',
  'store_transaction_id',
  'original_store_transaction_id',
  'refunded_at',
  'unsubscribe_detected_at',
  'billing_issues_detected_at',
  'purchased_currency',
  'price_in_purchased_currency',
  'purchase_price_in_purchased_currency',
  'entitlement_identifiers',
  'renewal_number',
  'is_trial_conversion',
  'presented_offering',
  'ownership_type',
  'reserved_subscriber_attributes',
  'custom_subscriber_attributes',
  'platform',
  'experiment_id',
  'experiment_variant',
  'updated_at',
  'offer',
  'offer_type',
  'first_seen_time',
  'auto_resume_time',
] as const;

/** One column of a version 5 export. */
export type ExportColumn = (typeof EXPORT_V5_COLUMNS)[number];
