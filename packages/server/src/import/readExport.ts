/**
 * Reading an export file as a stream: gzip or plain (told by the first two bytes, not the name),
 * CSV parsed by `csv-parse` (quotes, embedded commas and newlines, a BOM), the header checked
 * before the first row is handed out. Memory stays flat: one chunk and one record at a time.
 */
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { parse, type CsvError } from 'csv-parse';
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

/** An opened export: the column index and the records after the header. */
export interface ExportReader {
  index: ColumnIndex;
  /** Cells in the header: a row with another count is not a row of this file. */
  width: number;
  records: AsyncIterable<ExportRecord>;
  /** Records the parser skipped so far (grows while `records` is read). */
  unreadable: UnreadableRecord[];
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
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (error: CsvError | undefined) => {
      const line = (error as { lines?: number } | undefined)?.lines ?? 0;
      unreadable.push({ line, message: error?.message ?? 'Unreadable CSV record' });
      return undefined;
    },
  });
  const parsed = pipeline(source, parser, () => undefined);
  const iterator = parsed[Symbol.asyncIterator]() as AsyncIterator<{ record: string[]; info: { lines: number } }>;
  const first = await iterator.next();
  const header = first.done === true ? [] : first.value.record;
  const checked = checkExportHeader(header);
  if (!checked.ok) {
    parsed.destroy();
    stream.destroy();
    return { ok: false, error: checked.error };
  }
  const records = (async function* () {
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        yield { line: next.value.info.lines, cells: next.value.record };
      }
    } finally {
      parsed.destroy();
    }
  })();
  return { ok: true, value: { index: checked.value, width: header.length, records, unreadable } };
}
