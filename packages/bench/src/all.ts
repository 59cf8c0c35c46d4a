/**
 * Runs every benchmark in sequence. Select some with `npm run bench -- core server sim`; `storage`
 * runs the four storage benches (`atrisk`, `replay`, `parallel`, `rss`), which can also be named one
 * by one; `ingest` is another name for `server` (webhook ingest on every store); `bundle` measures the
 * core's bundle size (scorer-only import vs the whole core); `import` imports a synthetic RevenueCat
 * data export (1 M rows, BENCH_IMPORT_ROWS) beside parsing it only; `rescore` what a change of rules
 * costs at `tenure serve`'s start (ensureConfig beside replay); `population` generates 100 k
 * customers over 12 months with the billing simulator's population generator; `backtest` backtests 1 M
 * generated customers over 12 weekly cutoffs beside the plain fold of the same history
 * (BENCH_BACKTEST_CUSTOMERS); `tune` tunes on 100 k generated customers and compares the default and
 * tuned configs on the holdout (BENCH_TUNE_CUSTOMERS); `v1` loads the billing simulator's
 * `GET /v1/subscribers/{id}` over 10,000 customers beside a bare node:http server answering one stored
 * customer info body. `quick` (never part of a full run) measures each row of issue #21's table at
 * a smaller size in under a minute and prints it beside its goal, MET or MISS. `instructions` (never
 * part of a full run either) counts webhook ingest in instructions under callgrind, bare node:http
 * beside `tenure serve` on memory and SQLite: figures the machine's other load does not move.
 */
import { runBundleBench } from './bundleSize.js';
import { runBacktestBench } from './evaluation/backtestBench.js';
import { runTuneBench } from './evaluation/tuneBench.js';
import { runCoreBench } from './core.js';
import { runInstructionBench } from './http/ingestInstructions.js';
import { runImportBench } from './importBench.js';
import { runRescoreBench } from './store/rescoreBench.js';
import { runPopulationBench } from './population.js';
import { runQuickBench } from './quick.js';
import { runServerBench } from './server.js';
import { runSimBench } from './sim.js';
import { runStorageBench, STORAGE_BENCHES, type StorageBench } from './storage.js';
import { runV1Bench } from './v1.js';

const selected = new Set(process.argv.slice(2));
const wants = (name: string) => selected.size === 0 || selected.has(name);
const storage = new Set<StorageBench>(STORAGE_BENCHES.filter((b) => selected.has(b)));

if (selected.has('quick')) await runQuickBench();
if (selected.has('instructions')) await runInstructionBench();
if (wants('bundle')) await runBundleBench();
if (wants('core')) runCoreBench();
if (wants('sim')) await runSimBench();
if (wants('server') || selected.has('ingest')) await runServerBench();
if (wants('storage') || storage.size > 0) await runStorageBench(storage);
if (wants('import')) await runImportBench();
if (wants('rescore')) await runRescoreBench();
if (wants('population')) await runPopulationBench();
if (wants('backtest')) await runBacktestBench();
if (wants('tune')) await runTuneBench();
if (wants('v1')) await runV1Bench();
