/** `tenure import`: NDJSON lines from a file or stdin into the store, with a report of every line. */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { SubscriberStore } from '@tenure/core';
import { clockFromSpec } from '../../clock/clock.js';
import type { DataArgs } from './dataArgs.js';
import { progressDisplay, type DataIo } from './dataIo.js';
import { formatImportReport } from './formatImportReport.js';
import { ImportInterrupted, importRecords, type ImportReport } from './importRecords.js';
import { createProgressReporter, formatCount } from './progressReporter.js';

/** The opened input: a stream, and its size in bytes when it is a file (progress by bytes). */
export interface ImportInput {
  stream: Readable & { bytesRead?: number };
  bytes: number | null;
}

/** Rejected lines listed on stderr; the rest are counted (all of them are in the --json report). */
const LISTED_REJECTIONS = 100;

const progressDetail = (r: ImportReport) => `${formatCount(r.new)} new, ${formatCount(r.duplicate)} duplicate, ${formatCount(r.rejected)} rejected`;

/**
 * Given an open store, the opened input, the parsed arguments and the io, imports every line and
 * resolves with the exit code: 0 when no line was rejected, 1 when some were (the good lines are
 * imported all the same), 130 when interrupted by a signal. A store failure mid-way prints what was
 * committed and resolves with 1.
 *
 * @example
 * const code = await runImport(store, { stream: createReadStream(file), bytes: size }, args, io);
 */
export async function runImport(store: SubscriberStore, input: ImportInput, args: DataArgs, io: DataIo, signal?: AbortSignal): Promise<number> {
  const byBytes = input.bytes !== null && typeof input.stream.bytesRead === 'number';
  const progress = createProgressReporter({ label: 'import', unit: byBytes ? 'bytes' : 'lines', write: io.stderr, ...progressDisplay(io) });
  const lines = createInterface({ input: input.stream, crlfDelay: Infinity });
  let report: ImportReport;
  try {
    report = await importRecords(store, lines, {
      clock: clockFromSpec(args.clock),
      config: args.config,
      batchSize: args.batchSize,
      ...(signal === undefined ? {} : { signal }),
      onBatch: (r, line) =>
        byBytes ? progress.update(input.stream.bytesRead ?? 0, input.bytes, `${formatCount(line)} lines, ${progressDetail(r)}`) : progress.update(line, null, progressDetail(r)),
    });
  } catch (error) {
    if (!(error instanceof ImportInterrupted)) throw error;
    const why = signal?.aborted === true ? 'interrupted' : `failed: ${error.message}`;
    progress.finish(formatImportReport(error.report, progress.elapsedMs(), LISTED_REJECTIONS));
    io.stderr(
      `tenure import: ${why} at line ${formatCount(error.line)}. The batches counted above are committed; importing the file again is safe (stored events count as duplicates).\n`,
    );
    if (args.json) io.stdout(`${JSON.stringify({ ...error.report, complete: false })}\n`);
    return signal?.aborted === true ? 130 : 1;
  } finally {
    lines.close();
    input.stream.destroy();
  }
  progress.finish(formatImportReport(report, progress.elapsedMs(), LISTED_REJECTIONS));
  if (args.json) io.stdout(`${JSON.stringify({ ...report, complete: true })}\n`);
  return report.rejected === 0 ? 0 : 1;
}
