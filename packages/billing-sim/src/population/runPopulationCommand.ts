/**
 * `tenure-billing-sim population`: generates a population customer by customer and streams each
 * customer to the outputs asked for (files or stdout, HTTP delivery), so memory holds one customer
 * (and one delivery batch) whatever the population's size.
 */
import { accessSync, constants, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { exportCsvHeader } from '../export/writeExportCsv.js';
import { generatePopulation, populationWindow } from './generatePopulation.js';
import { openLineSink, type LineSink } from './lineSink.js';
import type { PopulationArgs, PopulationOutput } from './populationArgs.js';
import { createPopulationDelivery, type DeliveryTally } from './populationDelivery.js';
import { activityText, exportLines, exportPeriods, recordText, truthLine, webhookLines } from './populationLines.js';
import { DEFAULT_POPULATION_MODEL } from './populationModel.js';

/** What a run produced. */
export interface PopulationSummary {
  customers: number;
  webhooks: number;
  activity: number;
  export_rows: number;
  churned: number;
  delivery: DeliveryTally | null;
  cpu_ms: number;
}

/**
 * Given the output files, returns the first one that cannot be written (a missing or read-only
 * directory, a directory in its place), checked before any file is opened, so a rejected run writes
 * nothing; or null.
 */
export function unwritableOutput(outputs: PopulationArgs['outputs']): string | null {
  for (const [flag, path] of Object.entries(outputs)) {
    if (path === '-') continue;
    try {
      accessSync(dirname(path), constants.W_OK);
      if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) return `--${flag} ${path} is a directory`;
    } catch (err) {
      return `--${flag} ${path} cannot be written: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return null;
}

/**
 * Given checked flags and stdout, generates the population and writes it; resolves with what it
 * produced. Rejects on a write error (what was written stays).
 *
 * @example
 * const summary = await runPopulationCommand(args, process.stdout);
 */
export async function runPopulationCommand(args: PopulationArgs, stdout: Writable): Promise<PopulationSummary> {
  const cpu = process.cpuUsage();
  const sinks: Partial<Record<PopulationOutput, LineSink>> = {};
  for (const [flag, path] of Object.entries(args.outputs) as [PopulationOutput, string][]) {
    sinks[flag] = openLineSink(path === '-' ? null : openSync(path, 'w'), path, stdout);
  }
  const delivery = args.webhook === null ? null : createPopulationDelivery(args.webhook);
  const periods = exportPeriods(DEFAULT_POPULATION_MODEL);
  const summary: PopulationSummary = { customers: 0, webhooks: 0, activity: 0, export_rows: 0, churned: 0, delivery: null, cpu_ms: 0 };
  const { webhooks, activity, records, export: exported, truth } = sinks;
  // Writes return a promise only when a stream is full: awaited once per customer, not per write.
  const waits: Promise<void>[] = [];
  const put = (sink: LineSink | undefined, text: string) => {
    const wait = sink?.write(text);
    if (wait !== undefined) waits.push(wait);
  };
  put(exported, exportCsvHeader());
  try {
    for (const customer of generatePopulation({ customers: args.customers, months: args.months, seed: args.seed, start: args.start })) {
      summary.customers += 1;
      summary.webhooks += customer.events.length;
      summary.activity += customer.activity.length;
      if (customer.truth.churned) summary.churned += 1;
      const bodies = webhooks !== undefined || records !== undefined ? webhookLines(customer) : [];
      if (webhooks !== undefined) put(webhooks, bodies.join(''));
      if (activity !== undefined) put(activity, activityText(customer));
      if (records !== undefined) put(records, recordText(customer, bodies));
      if (exported !== undefined) {
        const rows = exportLines(customer, periods);
        summary.export_rows += rows.length;
        put(exported, rows.join(''));
      }
      if (truth !== undefined) put(truth, truthLine(customer));
      if (delivery !== null) {
        for (const body of customer.events) {
          const wait = delivery.send(body);
          if (wait !== undefined) waits.push(wait);
        }
      }
      if (waits.length > 0) {
        await Promise.all(waits);
        waits.length = 0;
      }
    }
    if (delivery !== null) summary.delivery = await delivery.finish();
  } finally {
    await Promise.all(Object.values(sinks).map((sink) => sink.close()));
  }
  const used = process.cpuUsage(cpu);
  summary.cpu_ms = Math.round((used.user + used.system) / 1000);
  return summary;
}

/**
 * Given the flags and what a run produced, returns the one-line summary the CLI prints on stderr. Pure.
 *
 * @example
 * summaryLine(args, summary); // 'population: 1000 customers over 12 months from 2026-01-01 (seed demo): 4859 webhooks, ...'
 */
export function summaryLine(args: PopulationArgs, s: PopulationSummary): string {
  const { start } = populationWindow(args);
  const share = s.customers === 0 ? 0 : (100 * s.churned) / s.customers;
  const delivery = s.delivery === null ? '' : `; delivered ${s.delivery.delivered}, failed ${s.delivery.failed}`;
  return (
    `population: ${s.customers} customers over ${args.months} months from ${new Date(start).toISOString()} (seed ${args.seed}): ` +
    `${s.webhooks} webhooks, ${s.activity} activity reports, ${s.export_rows} export rows, ${share.toFixed(1)} % churned at the end${delivery}; ${(s.cpu_ms / 1000).toFixed(1)} s CPU`
  );
}
