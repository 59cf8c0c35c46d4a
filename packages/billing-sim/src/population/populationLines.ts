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
 * and the shape is fixed. A whole second is written as its seconds and `000` (a number below 2^31
 * converts to text about twice as fast as epoch milliseconds do; the same digits). Pure.
 *
 * @example
 * activityLine(JSON.stringify('user_000001'), 1767225600000); // '{"activity":{"customer_id":"user_000001","at":1767225600000}}\n'
 */
export const activityLine = (customerIdJson: string, at: number): string =>
  at % 1000 === 0 && at > 0 ? `{"activity":{"customer_id":${customerIdJson},"at":${at / 1000}000}}\n` : `{"activity":{"customer_id":${customerIdJson},"at":${at}}}\n`;

/**
 * Given a generated customer, returns its webhook bodies as NDJSON lines (each ending in `\n`), in
 * time order. Pure.
 *
 * @example
 * for (const c of generatePopulation(options)) out.write(webhookLines(c).join(''));
 */
export const webhookLines = (customer: GeneratedCustomer): string[] => customer.events.map((body) => `${JSON.stringify(body)}\n`);

/**
 * Given a generated customer, returns its activity as `tenure import` lines, in time order, as one
 * text (millions of lines are written: no array of them). Pure.
 *
 * @example
 * activityText(customer).split('\n')[0]; // '{"activity":{"customer_id":"user_000001","at":1775756926000}}'
 */
export function activityText(customer: GeneratedCustomer): string {
  const id = JSON.stringify(customer.customer_id);
  let text = '';
  for (const at of customer.activity) text += activityLine(id, at);
  return text;
}

/**
 * Given a customer and its webhook lines (same order as its events), returns every record line in
 * time order, as one text, an event before an activity report of the same instant: what
 * `tenure export` writes. Pure.
 *
 * @example
 * out.write(recordText(customer, webhookLines(customer)));
 */
export function recordText(customer: GeneratedCustomer, webhooks: readonly string[]): string {
  const id = JSON.stringify(customer.customer_id);
  const { events, activity } = customer;
  let text = '';
  let a = 0;
  for (let e = 0; e < events.length; e += 1) {
    const at = events[e]!.event.event_timestamp_ms;
    while (a < activity.length && activity[a]! < at) text += activityLine(id, activity[a++]!);
    text += webhooks[e]!;
  }
  while (a < activity.length) text += activityLine(id, activity[a++]!);
  return text;
}

/**
 * Given a model, returns its plans' periods by product id (the export's `product_duration`). Pure.
 *
 * @example
 * exportPeriods(DEFAULT_POPULATION_MODEL).get('annual'); // { period: 'P1Y' }
 */
export function exportPeriods(model: PopulationModel): ReadonlyMap<string, { period: string | number | null }> {
  return new Map(populationProducts(model).map((p) => [p.id, { period: p.period ?? null }]));
}

/**
 * Given a customer and the plans' periods, returns its rows of the data export (version 5) as CSV
 * lines, one per transaction, built from its own events with `exportRows`. Pure.
 *
 * @example
 * out.write(exportCsvHeader()); for (const c of generatePopulation(options)) out.write(exportLines(c, exportPeriods(model)).join(''));
 */
export const exportLines = (customer: GeneratedCustomer, periods: ReadonlyMap<string, { period: string | number | null }>): string[] =>
  exportRows(customer.events, periods).map(exportCsvLine);

/**
 * Given a customer, returns its truth as one NDJSON line. Pure.
 *
 * @example
 * JSON.parse(truthLine(customer)).churned; // true or false
 */
export const truthLine = (customer: GeneratedCustomer): string => `${JSON.stringify(customer.truth)}\n`;
