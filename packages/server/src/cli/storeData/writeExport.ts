/**
 * Writing `tenure export`'s NDJSON: the store's records, then its moved subscriptions' routes
 * (`exportItems`), streamed as lines in chunks, waiting for
 * the output to drain, so the whole store is never held in memory; and the file variant that
 * writes a temporary file and renames it, so a failed or interrupted export never leaves a
 * truncated file under the requested name.
 */
import { createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { toExportLine, toMovedSubscriptionLine, type MovedSubscription, type StoredRecord, type SubscriberStore } from '@tenure/core';

/** One line of an export: a stored record, or a moved subscription's route. */
export type ExportItem = StoredRecord | { kind: 'moved_subscription'; route: MovedSubscription };

/** Lines written, by kind. */
export interface ExportCounts {
  events: number;
  activity: number;
  /** Moved-subscription lines (routes). */
  routes: number;
}

/**
 * Given a store, yields what `tenure export` writes: every record (events, then activity), then
 * every moved subscription's route, last, so an import stores the events before it restores the
 * routes and they route only what is delivered after them (docs/storage.md).
 *
 * @example
 * await writeExport(exportItems(store), process.stdout);
 */
export async function* exportItems(store: Pick<SubscriberStore, 'records' | 'movedSubscriptions'>): AsyncIterable<ExportItem> {
  yield* store.records();
  for await (const route of store.movedSubscriptions()) yield { kind: 'moved_subscription', route };
}

/** Lines are joined into chunks of about this size: one write per line costs more than the JSON. */
const CHUNK_CHARS = 64 * 1024;

/** Writes `chunk`, then waits for `drain` when the stream asks for it; rejects on a stream error. */
function writeChunk(out: Writable, chunk: string, failure: { error: Error | null }): Promise<void> {
  if (failure.error !== null) return Promise.reject(failure.error);
  if (out.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onClose);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onDrain = () => done();
    const onError = (error: Error) => done(error);
    const onClose = () => done(failure.error ?? new Error('the output was closed before the export finished'));
    out.on('drain', onDrain);
    out.on('error', onError);
    out.on('close', onClose);
  });
}

/**
 * Given the store's records (and routes) and an output stream, writes one NDJSON line per item (the
 * core's `toExportLine`, `toMovedSubscriptionLine`) with backpressure and resolves with the counts once every line is handed to the
 * stream (the caller ends it). `onProgress` is called after each chunk with the counts so far;
 * an aborted `signal` stops it between chunks with the signal's reason.
 *
 * @example
 * const counts = await writeExport(exportItems(store), process.stdout); // { events: 120, activity: 40, routes: 2 }
 */
export async function writeExport(
  records: AsyncIterable<ExportItem>,
  out: Writable,
  onProgress?: (counts: ExportCounts) => void,
  signal?: AbortSignal,
): Promise<ExportCounts> {
  const counts: ExportCounts = { events: 0, activity: 0, routes: 0 };
  // Errors are remembered by a listener that stays for the whole export, so an error emitted
  // between two writes (EPIPE from `tenure export | head`) is not an unhandled 'error' event.
  const failure: { error: Error | null } = { error: null };
  const onError = (error: Error) => {
    failure.error ??= error;
  };
  out.on('error', onError);
  try {
    let chunk = '';
    for await (const record of records) {
      chunk += `${JSON.stringify(record.kind === 'moved_subscription' ? toMovedSubscriptionLine(record.route) : toExportLine(record))}\n`;
      if (record.kind === 'event') counts.events += 1;
      else if (record.kind === 'activity') counts.activity += 1;
      else counts.routes += 1;
      if (chunk.length >= CHUNK_CHARS) {
        signal?.throwIfAborted();
        await writeChunk(out, chunk, failure);
        chunk = '';
        onProgress?.(counts);
      }
    }
    if (chunk.length > 0) await writeChunk(out, chunk, failure);
    onProgress?.(counts);
    if (failure.error !== null) throw failure.error;
    return counts;
  } finally {
    out.off('error', onError);
  }
}

/**
 * Given the store's records and a file path, writes the export to a temporary file beside it,
 * flushes it to disk and renames it over `path`; on any failure the temporary file is removed and
 * `path` is left as it was (also when `signal` aborts it). Resolves with the counts.
 *
 * @example
 * await writeExportFile(exportItems(store), './backup.ndjson');
 */
export async function writeExportFile(
  records: AsyncIterable<ExportItem>,
  path: string,
  onProgress?: (counts: ExportCounts) => void,
  signal?: AbortSignal,
): Promise<ExportCounts> {
  // Same directory, so the rename is atomic (same filesystem); pid so two exports do not collide.
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const out = createWriteStream(temp, { flags: 'wx' });
  try {
    await new Promise<void>((resolve, reject) => {
      out.once('open', () => resolve());
      out.once('error', reject);
    });
    const counts = await writeExport(records, out, onProgress, signal);
    await new Promise<void>((resolve, reject) => {
      out.once('error', reject);
      out.once('close', resolve);
      out.end();
    });
    // On disk before the rename, so a crash never leaves a renamed but empty file.
    const handle = await open(temp, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    return counts;
  } catch (error) {
    out.destroy();
    await rm(temp, { force: true });
    throw error;
  }
}
