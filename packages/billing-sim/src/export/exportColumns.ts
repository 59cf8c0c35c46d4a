/**
 * The columns of RevenueCat's scheduled data export, version 5, in the documented order (one list,
 * kept in the core, shared with the retention service's import). The simulator writes every one.
 */
export { EXPORT_V5_COLUMNS, type ExportColumn } from '@tenure/core';
