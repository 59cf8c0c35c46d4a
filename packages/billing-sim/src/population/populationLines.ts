/**
 * The text of a generated customer in each output format: webhook bodies as NDJSON (one body a line,
 * as the billing service POSTs it), app activity as `tenure import`'s activity lines, both merged in
 * time order (the records `tenure export` writes and `tenure import` and backtests read), rows of
 * RevenueCat's data export (version 5 CSV) and the truth as NDJSON.
 */
import { exportRows } from '../export/exportRows.js';
import { exportCsvLine } from '../export/writeExportCsv.js';
import type { GeneratedCustomer } from './generatePopulation.js';
import { populationProducts, type PopulationModel } from './populationModel.js';

/**
 * The activity line of `tenure export` / `tenure import` (`{ activity: { customer_id, at } }`, the
 * core's `toExportLine`), written from the customer id's JSON text: millions of lines are written
 * and the shape is fixed. Pure.
 *
 * @example
 * activityLine(JSON.stringify('user_000001'), 1767225600000); // '{"activity":{"customer_id":"user_000001","at":1767225600000}}\n'
 */
export const activityLine = (customerIdJson: string, at: number): string => `{"activity":{"customer_id":${customerIdJson},"at":${at}}}\n`;

/** The customer's webhook lines, in time order. */
export const webhookLines = (customer: GeneratedCustomer): string[] => customer.events.map((body) => `${JSON.stringify(body)}\n`);

/** The customer's activity lines, in time order. */
export function activityLines(customer: GeneratedCustomer): string[] {
  const id = JSON.stringify(customer.customer_id);
  return customer.activity.map((at) => activityLine(id, at));
}

/**
 * Given a customer and its webhook lines (same order as its events), returns every record line in
 * time order, an event before an activity report of the same instant. Pure.
 */
export function recordLines(customer: GeneratedCustomer, webhooks: readonly string[]): string[] {
  const id = JSON.stringify(customer.customer_id);
  const out: string[] = [];
  const { events, activity } = customer;
  let a = 0;
  for (let e = 0; e < events.length; e += 1) {
    const at = events[e]!.event.event_timestamp_ms;
    while (a < activity.length && activity[a]! < at) out.push(activityLine(id, activity[a++]!));
    out.push(webhooks[e]!);
  }
  while (a < activity.length) out.push(activityLine(id, activity[a++]!));
  return out;
}

/** The product periods the export's `product_duration` names, by product id. */
export function exportPeriods(model: PopulationModel): ReadonlyMap<string, { period: string | number | null }> {
  return new Map(populationProducts(model).map((p) => [p.id, { period: p.period ?? null }]));
}

/** The customer's rows of the data export (each transaction's row is built from its own events). */
export const exportLines = (customer: GeneratedCustomer, periods: ReadonlyMap<string, { period: string | number | null }>): string[] =>
  exportRows(customer.events, periods).map(exportCsvLine);

/** The customer's truth line. */
export const truthLine = (customer: GeneratedCustomer): string => `${JSON.stringify(customer.truth)}\n`;
