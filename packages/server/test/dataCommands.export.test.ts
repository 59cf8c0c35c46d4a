import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseExportLine } from '@tenure/core';
import { writeExport, writeExportFile, type ExportItem } from '../src/cli/storeData/writeExport.js';
import { handledEvent } from './helpers/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenure-export-'));
  dirs.push(dir);
  return dir;
};

/** Records made on demand (then `routes` moved subscriptions), counting how many the exporter has pulled. */
function lazyRecords(n: number, failAt?: number, routes = 0) {
  const state = { produced: 0 };
  async function* records(): AsyncGenerator<ExportItem> {
    for (let i = 0; i < n; i += 1) {
      if (i === failAt) throw new Error('the database went away');
      state.produced += 1;
      yield i % 2 === 0
        ? { kind: 'event', event: handledEvent('renewal', { id: `evt_${i}`, app_user_id: `user_${i}` }) }
        : { kind: 'activity', customer_id: `user_${i}`, at: 1_767_225_600_000 + i };
    }
    for (let i = 0; i < routes; i += 1) yield { kind: 'moved_subscription', route: { original_transaction_id: `otx_${i}`, receiver: `user_${i}` } };
  }
  return { state, records: records() };
}

describe('writeExport', () => {
  it('writes one parseable line per record and route, events, activity and routes counted apart', async () => {
    let text = '';
    const out = new Writable({ write: (chunk: Buffer, _e, done) => ((text += chunk.toString('utf8')), done()) });
    const { records } = lazyRecords(501, undefined, 2);
    expect(await writeExport(records, out)).toEqual({ events: 251, activity: 250, routes: 2 });
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(503);
    expect(lines.at(-1)).toBe('{"moved_subscription":{"original_transaction_id":"otx_1","receiver":"user_1"}}');
    const parsed = lines.map((l) => parseExportLine(JSON.parse(l)));
    expect(parsed[0]).toMatchObject({ ok: true, value: { record: { kind: 'event', event: { id: 'evt_0', type: 'RENEWAL' } } } });
    expect(parsed[1]).toEqual({ ok: true, value: { record: { kind: 'activity', customer_id: 'user_1', at: 1_767_225_600_001 } } });
    expect(parsed.slice(0, 501).every((p) => p.ok && p.value.record !== null)).toBe(true);
    expect(parsed[501]).toEqual({ ok: true, value: { record: null, moved_subscription: { original_transaction_id: 'otx_0', receiver: 'user_0' } } });
  });

  it('waits for a slow output to drain instead of reading the whole store ahead of it', async () => {
    const { state, records } = lazyRecords(20_000);
    let written = 0;
    let maxAhead = 0;
    const out = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _e, done) {
        written += chunk.toString('utf8').split('\n').length - 1;
        maxAhead = Math.max(maxAhead, state.produced - written);
        setImmediate(done);
      },
    });
    await writeExport(records, out);
    expect(written).toBe(20_000);
    // One 64 KB chunk is ~250 event lines; buffering the store would put all 20 000 ahead.
    expect(maxAhead).toBeLessThan(1_000);
  });

  it('rejects with the output error (a closed pipe) and stops reading records', async () => {
    const { state, records } = lazyRecords(20_000);
    const out = new Writable({ highWaterMark: 1024, write: (_c, _e, done) => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
    await expect(writeExport(records, out)).rejects.toThrow('EPIPE');
    expect(state.produced).toBeLessThan(20_000);
  });
});

describe('writeExportFile', () => {
  it('writes the file complete and leaves no temporary file behind', async () => {
    const dir = tempDir();
    const path = join(dir, 'backup.ndjson');
    expect(await writeExportFile(lazyRecords(1_000).records, path)).toEqual({ events: 500, activity: 500, routes: 0 });
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(1_001);
    expect(readdirSync(dir)).toEqual(['backup.ndjson']);
  });

  it('on a failure mid-way, keeps the previous file untouched and removes the partial one', async () => {
    const dir = tempDir();
    const path = join(dir, 'backup.ndjson');
    writeFileSync(path, 'yesterday\n');
    await expect(writeExportFile(lazyRecords(10_000, 5_000).records, path)).rejects.toThrow('the database went away');
    expect(readFileSync(path, 'utf8')).toBe('yesterday\n');
    expect(readdirSync(dir)).toEqual(['backup.ndjson']);
  });

  it('stops when aborted, leaving no file', async () => {
    const dir = tempDir();
    const path = join(dir, 'backup.ndjson');
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    await expect(writeExportFile(lazyRecords(10_000).records, path, undefined, controller.signal)).rejects.toThrow('interrupted');
    expect(readdirSync(dir)).toEqual([]);
  });
});
