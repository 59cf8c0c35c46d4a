/**
 * `npm run bench -- import`: `tenure import --format revenuecat-export` of a synthetic version 5
 * export (1 M rows by default, `BENCH_IMPORT_ROWS`), gzip as RevenueCat delivers it, into a fresh
 * SQLite store (the default of `tenure serve`): rows/s and peak RSS, beside the time to only read
 * and parse the same file's CSV in the same run (the baseline; goal ≥ 0.5× of it). The import runs
 * twice, each into a fresh store (`BENCH_IMPORT_PATHS`): before, every batch through
 * `applyEvents`; after, through the store's import session (each customer folded once, at the
 * end). Both in wall time and in CPU time (the process's user + system, gunzip's threads included:
 * the figure to read on a shared machine). RSS is sampled every 50 ms (`processUsage.ts`), and at each quarter of the
 * import, to show whether memory stays flat. `BENCH_IMPORT_ROUNDS=5` alternates parse-only and import five
 * times and prints the median ratio; `BENCH_IMPORT_AGAIN=1` imports the file a second time into each
 * store (the daily re-import, every event already stored). `BENCH_IMPORT_ROWS=2000` is a smoke run.
 */
import { createReadStream, createWriteStream, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { exportCsvLines, exportTime, type ExportColumn } from '@tenure/billing-sim';
import { addDuration, DEFAULT_CONFIG, parseDuration, type ImportSession, type StoreContext, type SubscriberStore } from '@tenure/core';
import { fixedClock, importExport, openExportReader } from '@tenure/server';
import { benchDatabaseUrl, benchTempDir, noticeNoPostgres, openBenchStore, removeBenchDir, type StoreKind } from './store/benchStores.js';
import { cpuMs, mb, startRssSampler } from './processUsage.js';
import { collectGarbage, printTable, rate, summarize } from './store/latency.js';

const ROWS = Number(process.env['BENCH_IMPORT_ROWS'] ?? 1_000_000);
/** The store imported into (`BENCH_IMPORT_STORE`): sqlite (default, what `tenure serve` uses), memory, or postgres (`BENCH_DATABASE_URL` or `TEST_DATABASE_URL`). */
const STORE: StoreKind = process.env['BENCH_IMPORT_STORE'] === 'memory' ? 'memory' : process.env['BENCH_IMPORT_STORE'] === 'postgres' ? 'postgres' : 'sqlite';
const T0 = Date.UTC(2025, 0, 1);
const DAY = 86_400_000;
/** The product's standard period (its `product_duration`): calendar months, as the stores renew. */
const P1M = parseDuration('P1M')!;
/** Transactions per subscription: 1 to 12 monthly periods, so ~6.5 rows per customer. */
const periodsOf = (customer: number) => 1 + ((customer * 7) % 12);

/** The rows' order: customer by customer (default), or `interleaved` (`BENCH_IMPORT_ORDER`): every customer's first period, then every second one, ..., roughly time order, where each customer's rows are far apart. */
const ORDER = process.env['BENCH_IMPORT_ORDER'] === 'interleaved' ? 'interleaved' : 'customer';

/** Row `p` (from 0) of customer `c`: monthly subscriptions, some trials, opt-outs, billing issues and refunds. */
function syntheticRow(c: number, p: number): Record<ExportColumn, string> {
  const periods = periodsOf(c);
  const start = T0 + (c % 365) * DAY + (c % 86_400) * 1000;
  const trial = c % 3 === 0;
  const latest = p === periods - 1;
  const begins = addDuration(start, P1M, p);
  const next = addDuration(start, P1M, p + 1);
  const ends = trial && p === 0 ? begins + 7 * DAY : next;
  const billing = latest && c % 20 === 1;
  const refunded = latest && c % 50 === 2;
  const optOut = latest && c % 10 === 3;
  const price = trial && p === 0 ? '0' : '9.99';
  return {
    rc_original_app_user_id: `$RCAnonymousID:${c.toString(16).padStart(32, '0')}`,
    rc_last_seen_app_user_id_alias: `user-${c}`,
    country: 'US',
    country_source: 'from_sdk',
    product_identifier: 'rc_monthly',
    product_display_name: 'Monthly',
    product_duration: 'P1M',
    start_time: exportTime(begins),
    end_time: exportTime(ends),
    grace_period_end_time: billing ? exportTime(ends + 16 * DAY) : '',
    effective_end_time: exportTime(refunded ? begins + DAY : billing ? ends + 16 * DAY : ends),
    store: c % 2 === 0 ? 'app_store' : 'play_store',
    is_auto_renewable: 'true',
    is_trial_period: trial && p === 0 ? 'true' : 'false',
    is_in_intro_offer_period: 'false',
    is_sandbox: c % 100 === 99 ? 'true' : 'false',
    price_in_usd: refunded ? '0' : price,
    purchase_price_in_usd: price,
    takehome_percentage: '0.7',
    tax_percentage: '0.1',
    commission_percentage: '0.15',
    store_transaction_id: `${c}-${p}`,
    original_store_transaction_id: `${c}-0`,
    refunded_at: refunded ? exportTime(begins + DAY) : '',
    unsubscribe_detected_at: optOut ? exportTime(begins + 2 * DAY) : '',
    billing_issues_detected_at: billing ? exportTime(ends) : '',
    purchased_currency: 'USD',
    price_in_purchased_currency: refunded ? '0' : price,
    purchase_price_in_purchased_currency: price,
    entitlement_identifiers: '["pro"]',
    renewal_number: String(p + 1),
    is_trial_conversion: trial && p === 1 ? 'true' : 'false',
    presented_offering: 'default',
    ownership_type: 'PURCHASED',
    reserved_subscriber_attributes: '{"$email": {"value": "a@example.com", "updated_at_ms": 1735689600000}}',
    custom_subscriber_attributes: '{}',
    platform: 'iOS',
    experiment_id: '',
    experiment_variant: '',
    updated_at: exportTime(latest ? ends : next),
    offer: '',
    offer_type: '',
    first_seen_time: exportTime(start),
    auto_resume_time: '',
  };
}

/** The synthetic export's first `total` rows, in `order` (customer by customer unless `interleaved`). */
export function* syntheticRows(total: number, order: 'customer' | 'interleaved' = 'customer'): Generator<Record<ExportColumn, string>> {
  if (order === 'customer') {
    for (let c = 0, written = 0; written < total; c += 1) {
      for (let p = 0; p < periodsOf(c) && written < total; p += 1, written += 1) yield syntheticRow(c, p);
    }
    return;
  }
  // The same rows as customer order gives: its customers, then their periods a pass at a time.
  let customers = 0;
  for (let rows = 0; rows < total; customers += 1) rows += periodsOf(customers);
  let budget = total;
  const rowsOf = (c: number) => (c === customers - 1 ? budget : periodsOf(c));
  for (let c = 0; c < customers - 1; c += 1) budget -= periodsOf(c);
  for (let p = 0; p < 12; p += 1) {
    for (let c = 0; c < customers; c += 1) if (p < rowsOf(c)) yield syntheticRow(c, p);
  }
}


/** The import paths measured (`BENCH_IMPORT_PATHS`, comma-separated; default both, before first). */
type ImportPath = 'batches' | 'session';
const PATHS: ImportPath[] = (process.env['BENCH_IMPORT_PATHS'] ?? 'batches,session').split(',').filter((p): p is ImportPath => p === 'batches' || p === 'session');

/**
 * The import as it was before the store's import session: every batch through `applyEvents` (each
 * customer read, folded and written once per batch it has rows in, and again for the end-of-file
 * events), measured in the same run as the session. The store is wrapped, not changed: its session
 * is replaced by calls to `applyEvents`.
 */
function throughApplyEvents(store: SubscriberStore): SubscriberStore {
  return Object.assign(Object.create(store) as SubscriberStore, {
    beginImport: async (ctx: StoreContext): Promise<ImportSession> => ({
      append: (events) => store.applyEvents(events, ctx),
      finish: async () => 0,
    }),
  });
}

/** The export file opened for reading, as the import opens it. */
async function openFile(file: string) {
  const opened = await openExportReader(createReadStream(file));
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

/** The export's instant and the rules every import of the bench runs with. */
const AT_EXPORT = { clock: fixedClock(T0 + 500 * DAY), config: DEFAULT_CONFIG, asOf: T0 + 500 * DAY };

/** One import of the file into a fresh store: rows, report, CPU and wall time, RSS before and peak, and RSS and heap after GC at each quarter. */
async function measureImport(file: string, path: ImportPath, round: number) {
  collectGarbage();
  const postgresUrl = benchDatabaseUrl();
  const sqlitePath = join(benchTempDir(), `import-${path}-${round}.db`);
  const opened = await openBenchStore(STORE, { sqlitePath, ...(postgresUrl === undefined ? {} : { postgresUrl }) });
  const rssBefore = process.memoryUsage.rss();
  const quarters: string[] = [];
  const sampler = await startRssSampler();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const reader = await openFile(file);
  // CPU after the latest batch: after the last one, what remains is the session's fold.
  let afterBatch = process.cpuUsage();
  const target = path === 'session' ? opened.store : throughApplyEvents(opened.store);
  const report = await importExport(target, reader, {
    ...AT_EXPORT,
    batchSize: Number(process.env['BENCH_IMPORT_BATCH'] ?? 10_000),
    onBatch: (r) => {
      // Every quarter this batch crossed (a small run has fewer batches than quarters).
      while (quarters.length < 4 && r.rows >= ((quarters.length + 1) * ROWS) / 4) {
        // RSS as it is, then the heap that survives a collection: what the import really holds.
        const rss = process.memoryUsage.rss();
        collectGarbage();
        quarters.push(`${mb(rss)} (heap after GC ${mb(process.memoryUsage().heapUsed)})`);
      }
      afterBatch = process.cpuUsage();
    },
  });
  const ms = performance.now() - started;
  const cpuUsed = process.cpuUsage(cpu);
  const peak = sampler.stop();
  const foldCpuMs = cpuMs(process.cpuUsage(afterBatch));
  const again = AGAIN ? await importAgain(file, target) : undefined;
  await opened.dispose();
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqlitePath}${suffix}`, { force: true }); // the next round's store is fresh, and the disk not filled
  return { report, ms, cpuMs: cpuMs(cpuUsed), foldCpuMs, rssBefore, peak, quarters, again };
}

/** Also import the same file a second time into the same store (`BENCH_IMPORT_AGAIN=1`): the daily re-import at its simplest, every event already stored. */
const AGAIN = process.env['BENCH_IMPORT_AGAIN'] === '1';

/** The file imported once more into `store`, which holds it already: rows, CPU and wall time, events found stored. */
async function importAgain(file: string, store: SubscriberStore) {
  collectGarbage();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const report = await importExport(store, await openFile(file), AT_EXPORT);
  return { rows: report.rows, ms: performance.now() - started, cpuMs: cpuMs(process.cpuUsage(cpu)), duplicate: report.duplicate, new: report.new };
}

/** Alternated rounds of parse-only and import (`BENCH_IMPORT_ROUNDS`, default 1): on a shared machine one pair is noise, the median of several is the figure. */
const ROUNDS = Math.max(1, Number(process.env['BENCH_IMPORT_ROUNDS'] ?? 1));

/** Parses the file only, as the import reads it: records, CPU and wall time, RSS before and peak. */
async function measureParse(file: string) {
  collectGarbage();
  const rssBefore = process.memoryUsage.rss();
  const sampler = await startRssSampler();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const reader = await openFile(file);
  let parsed = 0;
  // The cheapest way to see every record: the reader's batches, as the import reads them.
  for await (const batch of reader.batches) for (const record of batch) if (record.cells.length > 0) parsed += 1;
  return { parsed, ms: performance.now() - started, cpuMs: cpuMs(process.cpuUsage(cpu)), rssBefore, peak: sampler.stop() };
}

/** The median (`summarize`'s nearest rank), lowest and highest of a path's ratios over the rounds. */
const spread = (values: readonly number[]) => `median ${summarize(values).p50.toFixed(2)}, ${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

/** Runs the import bench and prints its table. */
export async function runImportBench(): Promise<void> {
  if (STORE === 'postgres' && benchDatabaseUrl() === undefined) {
    noticeNoPostgres('import');
    return;
  }
  const file = join(benchTempDir(), 'transactions.csv.gz');
  const made = performance.now();
  await pipeline(Readable.from(exportCsvLines(syntheticRows(ROWS, ORDER))), createGzip(), createWriteStream(file));
  console.log(`\nimport: synthetic version 5 export, ${ROWS.toLocaleString('en-US')} rows (${ORDER} order), ${mb(statSync(file).size)} gzip, written in ${((performance.now() - made) / 1000).toFixed(1)} s`);

  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const LABEL: Record<ImportPath, string> = { batches: 'before: applyEvents per batch', session: 'after: import session' };
  /** Each path's ratios to the parse of its round, by CPU. */
  const ratios = new Map<ImportPath, number[]>(PATHS.map((path) => [path, []]));
  const againRatios = new Map<ImportPath, number[]>(PATHS.map((path) => [path, []]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    const parse = await measureParse(file);
    const runs: { path: ImportPath; run: Awaited<ReturnType<typeof measureImport>> }[] = [];
    for (const path of PATHS) runs.push({ path, run: await measureImport(file, path, round) });
    const parseRate = (parse.parsed * 1000) / parse.ms;
    if (ROUNDS > 1) console.log(`round ${round} of ${ROUNDS}`);
    printTable(
      ['phase', 'rows', 'time', 'rows/s', '× parse-only', 'CPU', 'of it after the last batch', '× parse-only (CPU)', 'RSS before', 'peak RSS'],
      [
        ['parse only (gunzip + csv-parse), baseline', parse.parsed.toLocaleString('en-US'), seconds(parse.ms), rate(parseRate), 'baseline', seconds(parse.cpuMs), '', 'baseline', mb(parse.rssBefore), mb(parse.peak)],
        ...runs.map(({ path, run }) => {
          const importRate = (run.report.rows * 1000) / run.ms;
          const byCpu = parse.cpuMs / parse.parsed / (run.cpuMs / run.report.rows);
          ratios.get(path)!.push(byCpu);
          return [
            `import into ${STORE}, ${LABEL[path]}`,
            run.report.rows.toLocaleString('en-US'),
            seconds(run.ms),
            rate(importRate),
            (importRate / parseRate).toFixed(2),
            seconds(run.cpuMs),
            seconds(run.foldCpuMs),
            byCpu.toFixed(2),
            mb(run.rssBefore),
            mb(run.peak),
          ];
        }),
        ...runs.flatMap(({ path, run }) => {
          const again = run.again;
          if (again === undefined) return [];
          const byCpu = parse.cpuMs / parse.parsed / (again.cpuMs / again.rows);
          againRatios.get(path)!.push(byCpu);
          const rowsPerSecond = (again.rows * 1000) / again.ms;
          const label = `import again into the same store (${again.duplicate.toLocaleString('en-US')} events stored already, ${again.new} new), ${LABEL[path]}`;
          return [[label, again.rows.toLocaleString('en-US'), seconds(again.ms), rate(rowsPerSecond), (rowsPerSecond / parseRate).toFixed(2), seconds(again.cpuMs), '', byCpu.toFixed(2), '', '']];
        }),
      ],
    );
    if (round < ROUNDS) continue;
    for (const { path, run } of runs) {
      const r = run.report;
      console.log(
        `import (${LABEL[path]}): ${r.customers.toLocaleString('en-US')} customers, ${r.subscriptions.toLocaleString('en-US')} subscriptions, ${r.new.toLocaleString('en-US')} events stored, ` +
          `${r.sandbox_skipped.toLocaleString('en-US')} sandbox rows skipped, ${r.rejected} rejected; RSS at each quarter of the import: ${run.quarters.join(', ')}`,
      );
    }
  }
  removeBenchDir();
  if (ROUNDS > 1) {
    for (const [path, values] of ratios) {
      console.log(`import (${LABEL[path]}) × parse-only by CPU over ${ROUNDS} rounds: ${spread(values)}`);
      const again = againRatios.get(path)!;
      if (again.length > 0) console.log(`import again (${LABEL[path]}) × parse-only by CPU over ${ROUNDS} rounds: ${spread(again)}`);
    }
  }
}
