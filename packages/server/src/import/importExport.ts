/**
 * `tenure import --format revenuecat-export`: rows of a version 5 export into a store. Each row is
 * checked (`parseExportRow`), turned into real-format webhook events (`exportEventBatches`, `deriveEvents`: what
 * `parseWebhook` returns for them, a property test holds, so they are not parsed a second time), and
 * applied through the store in batches (one transaction each), so an imported subscriber is exactly
 * what those webhooks would have built, and the store's dedupe by event id makes importing again
 * idempotent.
 */
import type { HandledEvent, StoreContext, SubscriberStore, TenureConfig } from '@tenure/core';
import type { Clock } from '../clock/clock.js';
import { emptyRowTally, exportEventBatches, type ExportRowTally } from './exportEvents.js';
import type { ExportReader } from './readExport.js';

/** What an export import did: what the rows held, and what the store did with their events. */
export interface ExportImportReport extends ExportRowTally {
  /** Events derived and stored now, already stored (an earlier import or webhook with the same id), or of a type the core does not apply yet. */
  new: number;
  duplicate: number;
  ignored: number;
}

/** How to import an export. */
export interface ExportImportOptions {
  clock: Clock;
  config: TenureConfig;
  /**
   * Events per `applyEvents` transaction; default 10 000. The store reads and writes each customer
   * once per batch, so in a file in time order a larger batch touches each customer fewer times.
   */
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
  /** Stops between batches; what was written before stays (importing again is safe). */
  signal?: AbortSignal;
}

/**
 * Given a store, an opened export and the options, imports every row and resolves with the report.
 * A store error or an aborted signal rejects with the error; batches before it are committed.
 *
 * @example
 * const opened = await openExportReader(stream);
 * if (opened.ok) await importExport(store, opened.value, { clock: wallClock(), config: DEFAULT_CONFIG });
 */
export async function importExport(store: SubscriberStore, reader: ExportReader, options: ExportImportOptions): Promise<ExportImportReport> {
  const report: ExportImportReport = { ...emptyRowTally(), new: 0, duplicate: 0, ignored: 0 };
  const apply = async (target: SubscriberStore, events: readonly HandledEvent[]) => {
    if (events.length === 0) return;
    const ctx: StoreContext = { now: options.clock.now(), config: options.config };
    for (const status of await target.applyEvents(events, ctx)) {
      if (status === 'applied') report.new += 1;
      else report.duplicate += 1;
    }
  };
  const batches = exportEventBatches(reader, report, {
    sandbox: options.sandboxStore !== undefined,
    batchSize: options.batchSize ?? 10_000,
    maxRejections: options.maxRejections ?? 10_000,
    ...(options.asOf === undefined ? {} : { asOf: options.asOf }),
  });
  for await (const batch of batches) {
    options.signal?.throwIfAborted();
    for (const event of batch.production) options.clock.observe?.(event.event_timestamp_ms);
    await apply(store, batch.production);
    if (options.sandboxStore !== undefined) await apply(options.sandboxStore, batch.sandbox);
    options.onBatch?.(report, batch.line);
  }
  return report;
}
