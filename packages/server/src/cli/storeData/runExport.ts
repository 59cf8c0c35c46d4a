/** `tenure export`: the store's records as NDJSON to a file (written atomically) or to stdout. */
import type { SubscriberStore } from '@tenure/core';
import type { DataArgs } from './dataArgs.js';
import { progressDisplay, type DataIo } from './dataIo.js';
import { createProgressReporter, formatCount, formatDuration, formatRate } from './progressReporter.js';
import { exportItems, writeExport, writeExportFile, type ExportCounts } from './writeExport.js';

/**
 * Given an open store, the parsed arguments and the io, exports every record and resolves with the
 * exit code (0, or throws what failed: the caller prints it). Progress and the summary go to stderr.
 *
 * @example
 * const code = await runExport(store, args, io, controller.signal);
 */
export async function runExport(store: SubscriberStore, args: DataArgs, io: DataIo, signal?: AbortSignal): Promise<number> {
  const total = await store.eventCount();
  const progress = createProgressReporter({ label: 'export', unit: 'events', write: io.stderr, ...progressDisplay(io) });
  const onProgress = (c: ExportCounts) => progress.update(c.events, total, c.activity > 0 ? `${formatCount(c.activity)} activity` : undefined);
  const counts =
    args.out === undefined
      ? await writeExport(exportItems(store), io.stdoutStream ?? process.stdout, onProgress, signal)
      : await writeExportFile(exportItems(store), args.out, onProgress, signal);
  const ms = progress.elapsedMs();
  const lines = counts.events + counts.activity + counts.routes;
  // Routes (moved subscriptions) only when the store has some: most never applied a transfer.
  const written = counts.routes > 0 ? `, ${formatCount(counts.activity)} activity and ${formatCount(counts.routes)} route` : ` and ${formatCount(counts.activity)} activity`;
  progress.finish(
    `export: ${formatCount(counts.events)} events${written} lines written to ${args.out ?? 'stdout'} in ${formatDuration(ms)} (${formatRate(lines, ms, 'lines')})`,
  );
  return 0;
}
