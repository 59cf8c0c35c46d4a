// The export import's command runner: an interrupted import says what was committed and exits 130;
// a store that fails says so and exits 1; both print a partial JSON report.
import { Readable } from 'node:stream';
import { DEFAULT_CONFIG, type SubscriberStore } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { parseDataArgs } from '../../src/cli/storeData/dataArgs.js';
import { runExportImport } from '../../src/cli/storeData/runExportImport.js';
import { openExportReader } from '../../src/import/readExport.js';
import { createMemorySubscriberStore } from '../../src/store/memorySubscriberStore.js';
import { handledEvent, T0 } from '../helpers/fixtures.js';
import { toCsv, txRow } from './exportCsv.js';

const rows = Array.from({ length: 30 }, (_, i) => txRow({ rc_original_app_user_id: `u${i}`, rc_last_seen_app_user_id_alias: `u${i}`, store_transaction_id: `t${i}`, original_store_transaction_id: `t${i}` }));

async function run(store: SubscriberStore, signal?: AbortSignal, csvRows = rows) {
  const parsed = parseDataArgs('import', ['-', '--format', 'revenuecat-export', '--batch-size', '10', '--json'], {});
  if (!parsed.ok || parsed.help) throw new Error('args');
  const opened = await openExportReader(Readable.from([Buffer.from(toCsv(csvRows))]));
  if (!opened.ok) throw new Error(opened.error.message);
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), handleSignals: false, progressTty: false };
  const code = await runExportImport(store, opened.value, { bytes: null, bytesRead: () => undefined }, parsed.args, io, signal);
  return { code, out: out.join(''), err: err.join('') };
}

describe('runExportImport', () => {
  it('imports and exits 0 with the JSON report', async () => {
    const r = await run(createMemorySubscriberStore());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ rows: 30, customers: 30, new: 30, complete: true });
  });

  it('counts and names a transaction a webhook stored under another customer (summary, warning, JSON) instead of dropping it silently', async () => {
    const store = createMemorySubscriberStore();
    const webhook = handledEvent('initial_purchase', { id: 'rc-t0', app_user_id: 'other', original_app_user_id: 'other', aliases: ['other'], transaction_id: 't0', original_transaction_id: 't0' });
    expect((await store.applyEvent(webhook, { now: T0, config: DEFAULT_CONFIG })).status).toBe('applied');
    const r = await run(store, undefined, rows.slice(0, 2));
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.held_elsewhere).toBe(1);
    expect(report.held_elsewhere_examples).toEqual([{ event_id: 'export:t0:INITIAL_PURCHASE', customer_id: 'u0', occurrence: 'INITIAL_PURCHASE:APP_STORE:t0', held_by: 'other' }]);
    expect(r.err).toMatch(/duplicate \(1 held by another customer\)/);
    expect(r.err).toContain('\n  export:t0:INITIAL_PURCHASE (customer u0): INITIAL_PURCHASE:APP_STORE:t0 held by other');
  });

  it('stops between batches when interrupted: exit 130, what was committed is said and kept', async () => {
    const store = createMemorySubscriberStore();
    const controller = new AbortController();
    const beginImport = store.beginImport.bind(store);
    let batches = 0;
    store.beginImport = async (ctx) => {
      const session = await beginImport(ctx);
      return {
        append: async (events) => {
          const statuses = await session.append(events);
          if (++batches === 1) controller.abort(new Error('interrupted'));
          return statuses;
        },
        finish: (done, onProgress) => session.finish(done, onProgress),
      };
    };
    const r = await run(store, controller.signal);
    expect(r.code).toBe(130);
    expect(r.err).toContain('tenure import: interrupted near line');
    expect(r.err).toContain('are stored and their customers folded; importing the file again is safe');
    expect(JSON.parse(r.out)).toMatchObject({ new: 10, complete: false });
    expect(await store.count()).toBe(10);
  });

  it('a failing store ends the import with exit 1 and one line', async () => {
    const store = createMemorySubscriberStore();
    store.beginImport = async () => ({ append: () => Promise.reject(new Error('disk full')), finish: async () => 0 });
    const r = await run(store);
    expect(r.code).toBe(1);
    expect(r.err).toContain('tenure import: failed: disk full');
  });
});
