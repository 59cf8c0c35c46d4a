/** `tenure import --format revenuecat-export`: the export's rows into the store, with progress and a summary. */
import type { SubscriberStore } from '@tenure/core';
import { clockFromSpec } from '../../clock/clock.js';
import { importExport, type ExportImportReport } from '../../import/importExport.js';
import { formatHeldElsewhere } from '../../import/heldElsewhere.js';
import type { ExportReader } from '../../import/readExport.js';
import type { DataArgs } from './dataArgs.js';
import { progressDisplay, type DataIo } from './dataIo.js';
import { createProgressReporter, formatCount, formatDuration, formatRate } from './progressReporter.js';

/** Rejected rows listed on stderr; the rest are counted (the --json report lists up to 10,000). */
const LISTED_REJECTIONS = 100;

/**
 * Given an export import report, its duration and how many rejected rows to list, returns the
 * summary for stderr. Pure.
 *
 * @example
 * formatExportImportReport(report, 1_200, 100);
 * // import: 1,000 rows in 1.2s (833 rows/s): 120 customers, 130 subscriptions; events 1,050 new, 0 duplicate, 0 ignored; 3 sandbox rows skipped, 1 rejected
 * //   line 7 (start_time): Expected a UTC time ...
 */
export function formatExportImportReport(report: ExportImportReport, ms: number, listed: number): string {
  const out = [
    `import: ${formatCount(report.rows)} rows in ${formatDuration(ms)} (${formatRate(report.rows, ms, 'rows')}): ` +
      `${formatCount(report.customers)} customers, ${formatCount(report.subscriptions)} subscriptions; ` +
      `events ${formatCount(report.new)} new, ${formatCount(report.duplicate)} duplicate` +
      (report.held_elsewhere > 0 ? ` (${formatCount(report.held_elsewhere)} held by another customer)` : '') +
      `, ${formatCount(report.ignored)} ignored; ` +
      (report.sandbox_rows > 0 ? `${formatCount(report.sandbox_rows)} sandbox rows into the sandbox store, ` : '') +
      `${formatCount(report.sandbox_skipped)} sandbox rows skipped, ${formatCount(report.rejected)} rejected` +
      (report.as_of === null ? '' : `; as of ${new Date(report.as_of).toISOString()}`),
  ];
  for (const r of report.rejections.slice(0, listed)) out.push(`  line ${r.line} (${r.field}): ${r.message}`);
  const rest = report.rejected - Math.min(listed, report.rejections.length);
  if (rest > 0) out.push(`  ... and ${formatCount(rest)} more rejected rows${report.rejections.length > listed ? ' (--json lists them)' : ''}`);
  out.push(...formatHeldElsewhere(report));
  return out.join('\n');
}

/**
 * Given an open store, an export whose header was checked, the input's size, the arguments, the io
 * and (with `--include-sandbox`) the store's sandbox namespace, imports it and resolves with the exit code: 0 every row imported (or skipped as sandbox), 1
 * some rows were rejected (the others are imported) or the store failed, 130 interrupted.
 *
 * @example
 * const code = await runExportImport(store, reader, { bytes: size, bytesRead: () => stream.bytesRead }, args, io, signal);
 */
export async function runExportImport(
  store: SubscriberStore,
  reader: ExportReader,
  input: { bytes: number | null; bytesRead: () => number | undefined },
  args: DataArgs,
  io: DataIo,
  signal?: AbortSignal,
  sandboxStore?: SubscriberStore,
): Promise<number> {
  const byBytes = input.bytes !== null && input.bytesRead() !== undefined;
  const progress = createProgressReporter({ label: 'import', unit: byBytes ? 'bytes' : 'rows', write: io.stderr, ...progressDisplay(io) });
  const detail = (r: ExportImportReport) => `${formatCount(r.customers)} customers, ${formatCount(r.new)} new events, ${formatCount(r.rejected)} rejected`;
  let report: ExportImportReport | undefined;
  let last: ExportImportReport | undefined;
  let lastLine = 0;
  try {
    report = await importExport(store, reader, {
      clock: clockFromSpec(args.clock),
      config: args.config,
      batchSize: args.batchSize,
      ...(sandboxStore === undefined ? {} : { sandboxStore }),
      asOf: args.asOf,
      ...(signal === undefined ? {} : { signal }),
      onBatch: (r, line) => {
        last = r;
        lastLine = line;
        if (byBytes) progress.update(input.bytesRead() ?? 0, input.bytes, `${formatCount(r.rows)} rows, ${detail(r)}`);
        else progress.update(r.rows, null, detail(r));
      },
      // After the last row (or an interruption), each customer is folded once: the bar stays full meanwhile.
      onFold: (done, total) => {
        const folding = `folding customers ${formatCount(done)}/${formatCount(total)}`;
        if (byBytes) progress.update(input.bytesRead() ?? input.bytes ?? 0, input.bytes, folding);
        else progress.update(last?.rows ?? 0, null, folding);
      },
    });
  } catch (error) {
    const why = signal?.aborted === true ? 'interrupted' : `failed: ${error instanceof Error ? error.message : String(error)}`;
    if (last !== undefined) progress.finish(formatExportImportReport(last, progress.elapsedMs(), LISTED_REJECTIONS));
    const kept = signal?.aborted === true ? 'are stored and their customers folded' : 'are stored, their customers folded by the next import';
    io.stderr(
      `tenure import: ${why} near line ${formatCount(lastLine)}. The batches counted above ${kept}; importing the file again is safe (derived event ids are stable, stored ones count as duplicates) and completes it.\n`,
    );
    if (args.json && last !== undefined) io.stdout(`${JSON.stringify({ ...last, complete: false })}\n`);
    return signal?.aborted === true ? 130 : 1;
  }
  progress.finish(formatExportImportReport(report, progress.elapsedMs(), LISTED_REJECTIONS));
  if (args.json) io.stdout(`${JSON.stringify({ ...report, complete: true })}\n`);
  return report.rejected === 0 ? 0 : 1;
}
