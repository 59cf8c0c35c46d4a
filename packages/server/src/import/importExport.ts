/**
 * `tenure import --format revenuecat-export`: rows of a version 5 export into a store. Each row is
 * checked (`parseExportRow`), turned into real-format webhook events (`deriveEvents`: what
 * `parseWebhook` returns for them, a property test holds, so they are not parsed a second time), and
 * appended to the store's import session (`beginImport`) in batches (one transaction each); the
 * session folds each customer once, after the last row, into exactly the subscriber `applyEvents`
 * (and so those webhooks) would have built, and the store's dedupe by event id makes importing
 * again idempotent.
 */
import type { HandledEvent, ImportSession, SubscriberStore, TenureConfig } from '@tenure/core';
import type { Clock } from '../clock/clock.js';
import type { Rejection } from '../cli/storeData/importRecords.js';
import { createExportDeriver, eventsOfLatestRow, type DerivedEvent } from './deriveEvents.js';
import { parseExportRow } from './exportRow.js';
import type { ExportReader } from './readExport.js';

/** What an export import did. */
export interface ExportImportReport {
  /** Data rows read (the header is not one). */
  rows: number;
  /** Customers (`rc_original_app_user_id`) and subscriptions (customer + `original_store_transaction_id`) imported. */
  customers: number;
  subscriptions: number;
  /** Sandbox rows left out (no sandbox store: without `--include-sandbox`). */
  sandbox_skipped: number;
  /** Sandbox rows imported into the sandbox store (kept apart from production, like sandbox webhooks). */
  sandbox_rows: number;
  /** Events derived and stored now, already stored (an earlier import or webhook with the same id), or of a type the core does not apply yet. */
  new: number;
  duplicate: number;
  ignored: number;
  /** Rows skipped as bad, with line number and reason (the first `maxRejections`). */
  rejected: number;
  rejections: Rejection[];
  rejections_omitted: number;
  /** The export's instant (epoch ms): subscriptions whose effective end is at or before it are expired. */
  as_of: number | null;
}

/** How to import an export. */
export interface ExportImportOptions {
  clock: Clock;
  config: TenureConfig;
  /** Events per transaction of the import session; default 10 000 (what one batch holds in memory). */
  batchSize?: number;
  /**
   * Where sandbox rows go: the store's sandbox namespace (`sandboxStoreSpec`), as sandbox webhooks
   * do. Without it sandbox rows are skipped and counted.
   */
  sandboxStore?: SubscriberStore;
  /** The export's instant; default the latest `updated_at` in the file. */
  asOf?: number | null;
  /** Rejections kept for the report; default 10 000 (the count stays exact). */
  maxRejections?: number;
  /** Called after each batch with the report so far and the last line read. */
  onBatch?: (report: ExportImportReport, line: number) => void;
  /** Called while the customers are folded, after the last row (or after an interruption): customers folded, of how many. */
  onFold?: (done: number, total: number) => void;
  /**
   * Stops between batches; the customers of the batches stored are folded before the import
   * rejects (importing again is safe, and completes it).
   */
  signal?: AbortSignal;
}

/**
 * Given a store, an opened export and the options, imports every row and resolves with the report.
 * A store error or an aborted signal rejects with the error; batches before it are committed (after
 * an abort, folded too; after a store error, folded by the next import, whose session folds what
 * an earlier one left).
 *
 * @example
 * const opened = await openExportReader(stream);
 * if (opened.ok) await importExport(store, opened.value, { clock: wallClock(), config: DEFAULT_CONFIG });
 */
export async function importExport(store: SubscriberStore, reader: ExportReader, options: ExportImportOptions): Promise<ExportImportReport> {
  const batchSize = options.batchSize ?? 10_000;
  const maxRejections = options.maxRejections ?? 10_000;
  const report: ExportImportReport = {
    rows: 0,
    customers: 0,
    subscriptions: 0,
    sandbox_skipped: 0,
    sandbox_rows: 0,
    new: 0,
    duplicate: 0,
    ignored: 0,
    rejected: 0,
    rejections: [],
    rejections_omitted: 0,
    as_of: null,
  };
  const reject = (line: number, field: string, message: string) => {
    report.rejected += 1;
    if (report.rejections.length < maxRejections) report.rejections.push({ line, field, message });
    else report.rejections_omitted += 1;
  };
  const deriver = createExportDeriver();
  // One batch per environment: sandbox events never reach the production store.
  let batch: HandledEvent[] = [];
  let sandboxBatch: HandledEvent[] = [];
  let line = 1;
  let unreadableSeen = 0;

  const contextNow = () => ({ now: options.clock.now(), config: options.config });
  const session = await store.beginImport(contextNow());
  const sandboxSession = options.sandboxStore === undefined ? undefined : await options.sandboxStore.beginImport(contextNow());
  const apply = async (target: ImportSession, events: readonly HandledEvent[]) => {
    if (events.length === 0) return;
    for (const status of await target.append(events)) {
      if (status === 'applied') report.new += 1;
      else report.duplicate += 1;
    }
  };
  const flush = async () => {
    options.signal?.throwIfAborted();
    await apply(session, batch);
    batch = [];
    if (sandboxSession !== undefined) await apply(sandboxSession, sandboxBatch);
    sandboxBatch = [];
    report.customers = deriver.customers();
    report.subscriptions = deriver.subscriptions();
    options.onBatch?.(report, line);
  };
  // Synchronous: one promise per batch, not per row.
  const take = (events: readonly DerivedEvent[]) => {
    for (const event of events) {
      if (event.environment === 'SANDBOX') sandboxBatch.push(event);
      else {
        options.clock.observe?.(event.event_timestamp_ms);
        batch.push(event);
      }
    }
  };
  const full = () => batch.length + sandboxBatch.length >= batchSize;

  /** Folds every customer the sessions stored events of, once. */
  const fold = async () => {
    const ctx = contextNow();
    await session.finish(ctx, options.onFold);
    await sandboxSession?.finish(ctx);
  };
  try {
    for await (const records of reader.batches) {
      for (const record of records) {
        line = record.line;
        while (unreadableSeen < reader.unreadable.length) {
          const u = reader.unreadable[unreadableSeen++];
          if (u !== undefined) reject(u.line, 'row', u.message);
        }
        report.rows += 1;
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
          if (options.sandboxStore === undefined) {
            report.sandbox_skipped += 1;
            continue;
          }
          report.sandbox_rows += 1;
        }
        take(deriver.add(row.value));
        if (full()) await flush();
      }
    }
    for (const u of reader.unreadable.slice(unreadableSeen)) reject(u.line, 'row', u.message);
    const asOf = options.asOf ?? deriver.latestUpdate();
    report.as_of = asOf;
    if (asOf !== null) {
      // The latest rows' events in batches too, not one transaction holding every subscription's.
      for (const latest of deriver.latestRows()) {
        take(eventsOfLatestRow(latest, asOf));
        if (full()) await flush();
      }
    }
    await flush();
  } catch (error) {
    // Interrupted: what was stored is folded before stopping (a second signal ends the process, and the next import folds it).
    if (options.signal?.aborted === true) await fold();
    throw error;
  }
  await fold();
  report.rejections.sort((a, b) => a.line - b.line);
  return report;
}
