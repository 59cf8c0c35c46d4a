/**
 * Reading a history for the evaluation commands: `tenure export` NDJSON (each line as `tenure
 * import` reads it) or a RevenueCat data export (rows to events as `tenure import --format
 * revenuecat-export` derives them), into the stored records the core's backtest takes. A file of
 * the wrong format is refused at its first line; bad lines further in are skipped and counted.
 */
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { StoredRecord } from '@tenure/core';
import type { ImportFormat } from '../cli/storeData/dataArgs.js';
import type { Rejection } from '../cli/storeData/importRecords.js';
import { parseImportLine } from '../cli/storeData/parseImportLine.js';
import { emptyRowTally, exportEventBatches } from '../import/exportEvents.js';
import { openExportReader } from '../import/readExport.js';
import { errorLine } from '../store/openStore.js';

/** What reading a history file counted. */
export interface HistoryTally {
  /** Lines (NDJSON, non-blank) or rows (export) read. */
  read: number;
  /** Bad lines or rows, skipped: the count and the first few. */
  rejected: number;
  rejections: Rejection[];
  /** Well-formed events of types tenure does not apply (NDJSON), or sandbox rows (export): left out. */
  ignored: number;
  /** `lines` or `rows`. */
  unit: 'lines' | 'rows';
  /** Records handed to the sink. */
  kept: number;
}

/** A history read from a file into memory, and what was left out of it. */
export interface History extends HistoryTally {
  records: StoredRecord[];
}

export type HistoryOutcome = { ok: true; value: History } | { ok: false; error: string };
export type TallyOutcome = { ok: true; value: HistoryTally } | { ok: false; error: string };

/** Rejections kept (the count stays exact). */
const LISTED = 10;

/** Called as the file is read: bytes so far, and the file's size. */
export type ReadProgress = (bytes: number, total: number) => void;

/**
 * Given a file name, its format and an optional progress callback, resolves with the history in
 * it, or with one line saying why it cannot be used: unreadable, not of the format (a CSV given as
 * NDJSON, a file that is not a version 5 export), or holding no record at all.
 *
 * @example
 * const history = await readHistory('backup.ndjson', 'ndjson');
 * if (history.ok) backtest(history.value.records, options);
 */
export async function readHistory(path: string, format: ImportFormat, onProgress?: ReadProgress): Promise<HistoryOutcome> {
  const records: StoredRecord[] = [];
  const read = await readRecords(path, format, (record) => void records.push(record), onProgress);
  return read.ok ? { ok: true, value: { ...read.value, records } } : read;
}

/**
 * Given a file name, its format, a sink and an optional progress callback, hands every record of
 * the history to the sink in file order (for a sink that spills them to disk: `spillHistory`), and
 * resolves with what was read, or with one line saying why the file cannot be used (as
 * `readHistory`).
 *
 * @example
 * const tally = await readRecords('backup.ndjson', 'ndjson', (record) => insert(record));
 */
export async function readRecords(path: string, format: ImportFormat, sink: (record: StoredRecord) => void, onProgress?: ReadProgress): Promise<TallyOutcome> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return { ok: false, error: `cannot read ${path}: ${errorLine(error)}` };
  }
  const stream = handle.createReadStream();
  try {
    const { size } = await handle.stat();
    const progress = () => onProgress?.(stream.bytesRead, size);
    const outcome = format === 'ndjson' ? await readNdjson(path, stream, sink, progress) : await readExport(path, stream, sink, progress);
    if (outcome.ok && outcome.value.kept === 0) {
      const first = outcome.value.rejections[0];
      const why = first === undefined ? '' : ` (${outcome.value.rejected} ${outcome.value.unit} rejected; line ${first.line}, ${first.field}: ${first.message})`;
      return { ok: false, error: `${path} holds no events${why}` };
    }
    return outcome;
  } catch (error) {
    return { ok: false, error: `cannot read ${path}: ${errorLine(error)}` };
  } finally {
    stream.destroy();
  }
}

type Stream = ReturnType<Awaited<ReturnType<typeof open>>['createReadStream']>;

async function readNdjson(path: string, stream: Stream, sink: (record: StoredRecord) => void, progress: () => void): Promise<TallyOutcome> {
  const history: HistoryTally = { read: 0, rejected: 0, rejections: [], ignored: 0, unit: 'lines', kept: 0 };
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const raw of lines) {
      lineNo += 1;
      const line = parseImportLine(raw, lineNo);
      if (line.kind === 'blank') continue;
      history.read += 1;
      if (line.kind === 'record') {
        sink(line.record);
        history.kept += 1;
      }
      else if (line.kind === 'ignored') history.ignored += 1;
      else if (line.kind === 'moved_subscription') {
        // A moved subscription's route only says where events delivered later go: the exported
        // events are already re-keyed, so a history has nothing to take from it.
      } else {
        // The first line tells the format: a CSV or a binary file is not NDJSON with a bad line.
        if (history.read === 1 && line.field === 'line') {
          return { ok: false, error: `${path} is not NDJSON as \`tenure export\` writes it: line ${lineNo} is not JSON (for a RevenueCat data export use --format revenuecat-export)` };
        }
        history.rejected += 1;
        if (history.rejections.length < LISTED) history.rejections.push({ line: lineNo, field: line.field, message: line.message });
      }
      if ((lineNo & 0x3ff) === 0) progress();
    }
  } finally {
    lines.close();
  }
  progress();
  return { ok: true, value: history };
}

async function readExport(path: string, stream: Stream, sink: (record: StoredRecord) => void, progress: () => void): Promise<TallyOutcome> {
  const opened = await openExportReader(stream);
  if (!opened.ok) return { ok: false, error: `${path}: ${opened.error.message}` };
  const tally = emptyRowTally();
  let kept = 0;
  // Sandbox rows are test purchases: left out, as production scores leave them out.
  for await (const batch of exportEventBatches(opened.value, tally, { sandbox: false, batchSize: 10_000, maxRejections: LISTED })) {
    for (const event of batch.production) sink({ kind: 'event', event });
    kept += batch.production.length;
    progress();
  }
  return { ok: true, value: { read: tally.rows, rejected: tally.rejected, rejections: tally.rejections, ignored: tally.sandbox_skipped, unit: 'rows', kept } };
}
