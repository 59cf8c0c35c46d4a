/**
 * Reading an export file as a stream: gzip or plain (told by the first two bytes, not the name),
 * CSV parsed by `csv-parse` (quotes, embedded commas and newlines, a BOM), the header checked
 * before the first row is handed out. Memory stays flat: the records the parser has ready, a batch
 * at a time, never the file.
 */
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Parser, type CsvError, type Options } from 'csv-parse';
import { checkExportHeader, type ColumnIndex, type HeaderProblem } from './exportColumns.js';

/** One CSV record and the line it ends on (numbered from 1, the header is line 1). */
export interface ExportRecord {
  line: number;
  cells: string[];
}

/** A record the CSV parser could not read (an unclosed quote, ...), skipped with its line. */
export interface UnreadableRecord {
  line: number;
  message: string;
}

/** An opened export: the column index and the records after the header. Read `batches` or `records`, once. */
export interface ExportReader {
  index: ColumnIndex;
  /** Cells in the header: a row with another count is not a row of this file. */
  width: number;
  /** The records in file order, as many at a time as the parser has ready (one promise per batch, not per record). */
  batches: AsyncIterable<ExportRecord[]>;
  /** The same records one at a time. */
  records: AsyncIterable<ExportRecord>;
  /** Records the parser skipped so far (grows while `records` is read). */
  unreadable: UnreadableRecord[];
}

/**
 * csv-parse's stream, each record handed out with the line it ends on. The line is read from the
 * parser's documented `info` when the record is pushed (the moment `info: true` would copy it):
 * the same number without a copy of the whole info object per record.
 */
class LineParser extends Parser {
  override push(record: unknown, encoding?: BufferEncoding): boolean {
    return super.push(record === null ? null : ({ line: this.info.lines, cells: record as string[] } satisfies ExportRecord), encoding);
  }
}

/**
 * Given an object stream, yields what it has buffered as one array each time, waiting only when it
 * is empty; ends with the stream and throws its error. Leaves the stream destroyed.
 */
async function* readBatches<T>(stream: Readable): AsyncGenerator<T[]> {
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: { error: unknown } | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const onEnd = () => {
    ended = true;
    notify();
  };
  const onError = (error: unknown) => {
    failure ??= { error };
    notify();
  };
  stream.on('readable', notify);
  stream.on('end', onEnd);
  stream.on('close', onEnd);
  stream.on('error', onError);
  try {
    for (;;) {
      const batch: T[] = [];
      for (let item = stream.read() as T | null; item !== null; item = stream.read() as T | null) batch.push(item);
      if (batch.length > 0) {
        yield batch;
        continue;
      }
      if (failure !== undefined) throw failure.error;
      if (ended || stream.readableEnded || stream.destroyed) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stream.off('readable', notify);
    stream.off('end', onEnd);
    stream.off('close', onEnd);
    stream.off('error', onError);
    stream.destroy();
  }
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** Given a byte stream, returns it, or its decompression when it starts with the gzip magic bytes. */
async function decompressed(stream: Readable): Promise<Readable> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const first = await chunks.next();
  const head = first.done === true ? Buffer.alloc(0) : Buffer.from(first.value);
  const rest = Readable.from(
    (async function* () {
      if (head.length > 0) yield head;
      for (;;) {
        const next = await chunks.next();
        if (next.done === true) return;
        yield next.value;
      }
    })(),
    { objectMode: false },
  );
  if (head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1]) return rest;
  // pipeline destroys the gunzip stream with the error of either side, so reading it throws.
  return pipeline(rest, createGunzip(), () => undefined);
}

/**
 * Given a byte stream of an export, resolves with a reader positioned after a valid version 5
 * header, or with the header's problem (missing columns named; nothing after it is read). A row
 * with another number of cells than the header is handed out as it is (the row check rejects it);
 * a record the parser cannot read is skipped into `unreadable`.
 *
 * @example
 * const opened = await openExportReader(createReadStream('transactions.csv.gz'));
 * if (opened.ok) for await (const { line, cells } of opened.value.records) { ... }
 */
export async function openExportReader(stream: Readable): Promise<{ ok: true; value: ExportReader } | { ok: false; error: HeaderProblem }> {
  const source = await decompressed(stream);
  const unreadable: UnreadableRecord[] = [];
  const options: Options = {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (error: CsvError | undefined) => {
      const line = (error as { lines?: number } | undefined)?.lines ?? 0;
      unreadable.push({ line, message: error?.message ?? 'Unreadable CSV record' });
      return undefined;
    },
  };
  const parsed = pipeline(source, new LineParser(options), () => undefined);
  const all = readBatches<ExportRecord>(parsed);
  // The header is the first record; the rest of its batch is the first batch of rows.
  let first = await all.next();
  while (first.done !== true && first.value.length === 0) first = await all.next();
  const head = first.done === true ? [] : first.value;
  const header = head[0]?.cells ?? [];
  const checked = checkExportHeader(header);
  if (!checked.ok) {
    await all.return(undefined);
    stream.destroy();
    return { ok: false, error: checked.error };
  }
  const batches = (async function* () {
    if (head.length > 1) yield head.slice(1);
    yield* all;
  })();
  const records = (async function* () {
    for await (const batch of batches) yield* batch;
  })();
  return { ok: true, value: { index: checked.value, width: header.length, batches, records, unreadable } };
}
