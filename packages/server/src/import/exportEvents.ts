/**
 * The rows of an opened version 5 export as batches of webhook events: each row checked
 * (`parseExportRow`), bad ones counted with their line and reason, sandbox rows kept apart (or
 * skipped), events derived (`createExportDeriver`), and after the last row the events of every
 * subscription's latest row at the export's instant. `tenure import` applies the batches to a store;
 * `tenure backtest` and `tenure tune` keep them as a history.
 */
import type { HandledEvent } from '@tenure/core';
import type { Rejection } from '../cli/storeData/importRecords.js';
import { createExportDeriver, eventsOfLatestRow, type DerivedEvent } from './deriveEvents.js';
import { parseExportRow } from './exportRow.js';
import type { ExportReader } from './readExport.js';

/** What the rows held so far (updated in place as batches are handed out). */
export interface ExportRowTally {
  /** Data rows read (the header is not one). */
  rows: number;
  /** Customers (`rc_original_app_user_id`) and subscriptions (customer + `original_store_transaction_id`) seen. */
  customers: number;
  subscriptions: number;
  /** Sandbox rows left out (without `sandbox: true`). */
  sandbox_skipped: number;
  /** Sandbox rows whose events are in the batches' `sandbox` list. */
  sandbox_rows: number;
  /** Rows skipped as bad, with line number and reason (the first `maxRejections`). */
  rejected: number;
  rejections: Rejection[];
  rejections_omitted: number;
  /** The export's instant (epoch ms): subscriptions whose effective end is at or before it are expired. Set after the last row. */
  as_of: number | null;
}

/** One batch: production and sandbox events apart (sandbox never reaches production), and the last line read. */
export interface ExportEventBatch {
  production: HandledEvent[];
  sandbox: HandledEvent[];
  line: number;
}

export interface ExportEventOptions {
  /** Derive sandbox rows' events (into `sandbox`); else skip and count them. */
  sandbox: boolean;
  /** Events per batch (production and sandbox together). */
  batchSize: number;
  /** The export's instant; default (null or absent) the latest `updated_at` in the file. */
  asOf?: number | null;
  /** Rejections listed in the tally; the count stays exact. */
  maxRejections: number;
}

/**
 * Returns a tally with nothing counted yet. Pure.
 *
 * @example
 * const tally = emptyRowTally();
 */
export function emptyRowTally(): ExportRowTally {
  return { rows: 0, customers: 0, subscriptions: 0, sandbox_skipped: 0, sandbox_rows: 0, rejected: 0, rejections: [], rejections_omitted: 0, as_of: null };
}

/**
 * Given an opened export, a tally to update and the options, yields the derived events in batches
 * of about `batchSize`, and always a last batch (maybe empty) once the file is read and the latest
 * rows' events are derived; by then `tally` is complete, its rejections sorted by line.
 *
 * @example
 * const tally = emptyRowTally();
 * for await (const batch of exportEventBatches(reader, tally, { sandbox: false, batchSize: 10_000, maxRejections: 100 })) events.push(...batch.production);
 */
export async function* exportEventBatches(reader: ExportReader, tally: ExportRowTally, options: ExportEventOptions): AsyncGenerator<ExportEventBatch, void, undefined> {
  const reject = (line: number, field: string, message: string) => {
    tally.rejected += 1;
    if (tally.rejections.length < options.maxRejections) tally.rejections.push({ line, field, message });
    else tally.rejections_omitted += 1;
  };
  const deriver = createExportDeriver();
  let batch: ExportEventBatch = { production: [], sandbox: [], line: 1 };
  let unreadableSeen = 0;
  // Synchronous: one promise per batch, not per row.
  const take = (events: readonly DerivedEvent[]) => {
    for (const event of events) (event.environment === 'SANDBOX' ? batch.sandbox : batch.production).push(event);
  };
  const full = () => batch.production.length + batch.sandbox.length >= options.batchSize;
  const handOut = (): ExportEventBatch => {
    tally.customers = deriver.customers();
    tally.subscriptions = deriver.subscriptions();
    const out = batch;
    batch = { production: [], sandbox: [], line: out.line };
    return out;
  };

  for await (const records of reader.batches) {
    for (const record of records) {
      const line = record.line;
      batch.line = line;
      while (unreadableSeen < reader.unreadable.length) {
        const u = reader.unreadable[unreadableSeen++];
        if (u !== undefined) reject(u.line, 'row', u.message);
      }
      tally.rows += 1;
      if (record.cells.length !== reader.width) {
        reject(line, 'row', `Expected ${reader.width} cells like the header, got ${record.cells.length}`);
        continue;
      }
      const row = parseExportRow(record.cells, reader.index);
      if (!row.ok) {
        reject(line, row.error.field, row.error.message);
        continue;
      }
      if (row.value.is_sandbox) {
        if (!options.sandbox) {
          tally.sandbox_skipped += 1;
          continue;
        }
        tally.sandbox_rows += 1;
      }
      take(deriver.add(row.value));
      if (full()) yield handOut();
    }
  }
  for (const u of reader.unreadable.slice(unreadableSeen)) reject(u.line, 'row', u.message);
  const asOf = options.asOf ?? deriver.latestUpdate();
  tally.as_of = asOf;
  if (asOf !== null) {
    // The latest rows' events in batches too, not one batch holding every subscription's.
    for (const latest of deriver.latestRows()) {
      take(eventsOfLatestRow(latest, asOf));
      if (full()) yield handOut();
    }
  }
  tally.rejections.sort((a, b) => a.line - b.line);
  yield handOut();
}
