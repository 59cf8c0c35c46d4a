// The export reader: records in batches with the line each ends on, the header in any chunking,
// and a broken gzip stream surfacing as an error of the read (not an uncaught one).
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { DEFAULT_CONFIG } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/clock/clock.js';
import { importExport } from '../../src/import/importExport.js';
import { openExportReader, type ExportReader } from '../../src/import/readExport.js';
import { createMemorySubscriberStore } from '../../src/store/memorySubscriberStore.js';
import { T0 } from '../helpers/fixtures.js';
import { toCsv, txRow } from './exportCsv.js';

const rowsOf = (n: number) =>
  Array.from({ length: n }, (_, i) => txRow({ rc_original_app_user_id: `u${i}`, rc_last_seen_app_user_id_alias: `u${i}`, store_transaction_id: `t${i}`, original_store_transaction_id: `t${i}` }));

/** A byte stream of `bytes` cut into chunks of `size` bytes. */
const chunked = (bytes: Buffer, size: number) => Readable.from(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size)));

async function open(stream: Readable): Promise<ExportReader> {
  const opened = await openExportReader(stream);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

describe('openExportReader', () => {
  it.each([1, 7, 4096, 1 << 20])('hands out every record once, in order, with its line, in chunks of %i bytes', async (size) => {
    const csv = Buffer.from(toCsv(rowsOf(500)));
    const reader = await open(chunked(csv, size));
    const lines: number[] = [];
    let batches = 0;
    for await (const batch of reader.batches) {
      batches += 1;
      for (const record of batch) lines.push(record.line);
    }
    expect(lines).toEqual(Array.from({ length: 500 }, (_, i) => i + 2));
    expect(batches).toBeGreaterThanOrEqual(1);
  });

  it('reads the same records one at a time through records', async () => {
    const reader = await open(chunked(gzipSync(toCsv(rowsOf(50))), 64));
    const cells: string[] = [];
    for await (const record of reader.records) cells.push(record.cells[0]!);
    expect(cells).toEqual(Array.from({ length: 50 }, (_, i) => `u${i}`));
  });

  it('a gzip file cut short: the import rejects with the gzip error, after committing the batches before it', async () => {
    const whole = gzipSync(toCsv(rowsOf(3000)));
    const reader = await open(chunked(whole.subarray(0, Math.floor(whole.length / 2)), 1024));
    const store = createMemorySubscriberStore();
    const batches: number[] = [];
    const importing = importExport(store, reader, { clock: fixedClock(T0), config: DEFAULT_CONFIG, batchSize: 100, onBatch: (r) => void batches.push(r.rows) });
    await expect(importing).rejects.toThrow(/unexpected end of file/i);
    expect(batches.length).toBeGreaterThan(0);
    expect(await store.count()).toBe(batches.at(-1));
  });
});
