/**
 * `tenure import --format revenuecat-export`: rows of a version 5 export into a store. Each row is
 * checked (`parseExportRow`), turned into real-format webhook events (`exportEventBatches`, `deriveEvents`: what
 * `parseWebhook` returns for them, a property test holds, so they are not parsed a second time), and
 * appended to the store's import session (`beginImport`) in batches (one transaction each); the
 * session folds each customer once, after the last row, into exactly the subscriber `applyEvents`
 * (and so those webhooks) would have built, and the store's dedupe by event id makes importing
 * again idempotent.
 */
import type { HandledEvent, ImportSession, SubscriberStore, TenureConfig } from '@tenure/core';
import type { Clock } from '../clock/clock.js';
import { emptyRowTally, exportEventBatches, type ExportRowTally } from './exportEvents.js';
import { heldElsewhereListener, type HeldElsewhereTally } from './heldElsewhere.js';
import type { ExportReader } from './readExport.js';

/** What an export import did: what the rows held, and what the store did with their events. */
export interface ExportImportReport extends ExportRowTally, HeldElsewhereTally {
  /** Events derived and stored now, already stored (an earlier import or webhook with the same id), or of a type the core does not apply yet. */
  new: number;
  duplicate: number;
  ignored: number;
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
  const report: ExportImportReport = { ...emptyRowTally(), new: 0, duplicate: 0, ignored: 0, held_elsewhere: 0, held_elsewhere_examples: [] };
  const contextNow = () => ({ now: options.clock.now(), config: options.config });
  const session = await store.beginImport(contextNow());
  const sandboxSession = options.sandboxStore === undefined ? undefined : await options.sandboxStore.beginImport(contextNow());
  const apply = async (target: ImportSession, events: readonly HandledEvent[]) => {
    if (events.length === 0) return;
    for (const status of await target.append(events, heldElsewhereListener(report, events))) {
      if (status === 'applied') report.new += 1;
      else report.duplicate += 1;
    }
  };
  /** Folds every customer the sessions stored events of, once. */
  const fold = async () => {
    const ctx = contextNow();
    await session.finish(ctx, options.onFold);
    await sandboxSession?.finish(ctx);
  };
  const batches = exportEventBatches(reader, report, {
    sandbox: options.sandboxStore !== undefined,
    batchSize: options.batchSize ?? 10_000,
    maxRejections: options.maxRejections ?? 10_000,
    ...(options.asOf === undefined ? {} : { asOf: options.asOf }),
  });
  try {
    for await (const batch of batches) {
      options.signal?.throwIfAborted();
      for (const event of batch.production) options.clock.observe?.(event.event_timestamp_ms);
      await apply(session, batch.production);
      if (sandboxSession !== undefined) await apply(sandboxSession, batch.sandbox);
      options.onBatch?.(report, batch.line);
    }
  } catch (error) {
    // Interrupted: what was stored is folded before stopping (a second signal ends the process, and the next import folds it).
    if (options.signal?.aborted === true) await fold();
    throw error;
  }
  await fold();
  return report;
}
