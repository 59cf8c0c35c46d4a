/**
 * WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside the commit that
 * crosses 1000 WAL pages, on the caller's thread: it copies pages into the database file and
 * fsyncs it, which on a VM disk stalls that one commit (and the event loop) for 30 to 150 ms.
 * Instead, the store's connection has `wal_autocheckpoint = 0` and a worker thread with its own
 * connection runs passive checkpoints on a timer; a passive checkpoint never blocks readers or the
 * writer, and the fsync happens on the worker's thread.
 *
 * A passive checkpoint alone never lets the WAL start over under steady writes: SQLite rewinds the
 * WAL only when a write begins with every frame already in the file, and commits land while the
 * worker copies. The WAL then grew by every commit (1 GB in 12 s of ingest, measured 2026-11-29),
 * and each frame appended to a new part of the file cost the kernel a zeroed page-cache page (a
 * quarter of the server's CPU). So once the WAL holds `RESTART_FRAMES` frames, the worker catches up
 * with a few more passes, then asks the store to hold its commits (`hold`: webhooks queue, nothing
 * is refused; HTTP keeps being served; `applyEvents` and an import's batches wait on `released`)
 * while it folds the last frames in, and lets them go (`release`); the next commit rewinds the WAL,
 * which then stays at the size it reached.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** How often the worker checkpoints; the WAL grows by at most what is written in this time. */
const INTERVAL_MS = 250;
/** SQLite's own default, restored if the worker stops unexpectedly so the WAL never grows unbounded. */
const AUTOCHECKPOINT_PAGES = 1000;
/** From this many frames (SQLite's automatic checkpoint's threshold, ~4 MB), the worker makes the WAL start over. */
const RESTART_FRAMES = 1000;
/** Passes run back to back before commits are held: each copies what was written during the last. */
const CATCH_UP_PASSES = 2;
/** The longest commits stay held should the worker not answer (it is stuck or gone). */
const MAX_HOLD_MS = 1000;

// Plain CommonJS evaluated in the worker, so the same code runs from the TypeScript source (tests)
// and from the build; the driver is required by absolute path because an eval'd worker resolves
// modules from the working directory, not from this package.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
db.pragma('cache_size = -2048');
let stopping = false;
let timer;
let onHeld;
// [{ busy, log, checkpointed }]: the WAL's frames when the pass began and how many are in the file
// (frames committed during the pass are in neither figure).
const pass = () => { try { return db.pragma('wal_checkpoint(PASSIVE)')[0]; } catch { return undefined; } };
async function cycle() {
  let r = pass();
  // A WAL this long has not started over since it was short: the writer kept it busy.
  for (let i = 0; i < workerData.catchUpPasses && r !== undefined && r.log >= workerData.restartFrames; i += 1) r = pass();
  if (r !== undefined && r.log >= workerData.restartFrames && !stopping) {
    await new Promise((resolve) => { onHeld = resolve; parentPort.postMessage('hold'); });
    onHeld = undefined;
    if (stopping) return;
    pass();
    parentPort.postMessage('release');
  }
  if (!stopping) timer = setTimeout(cycle, workerData.intervalMs);
}
timer = setTimeout(cycle, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'held') { onHeld?.(); return; }
  stopping = true;
  clearTimeout(timer);
  onHeld?.();
  db.close();
  parentPort.close();
});
`;

/** What the checkpointer asks of the store while it folds the WAL's last frames in. */
export interface CommitHold {
  /** Holds the store's commits (they queue) until `release`. */
  hold(): void;
  release(): void;
}

/** Stops the checkpoint worker (after its current checkpoint); resolves when it has exited. */
export type StopCheckpointer = () => Promise<void>;

/**
 * Given the store's open connection on a file, its busy timeout and how to hold its commits, moves
 * its WAL checkpoints to a worker thread and returns how to stop it. The worker does not keep the
 * process alive; commits it held are released when it answers, stops or exits, and after
 * `MAX_HOLD_MS` at most.
 */
export function startCheckpointer(db: Database.Database, path: string, busyTimeoutMs: number, commits: CommitHold): StopCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  db.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, path, busyTimeoutMs, intervalMs: INTERVAL_MS, restartFrames: RESTART_FRAMES, catchUpPasses: CATCH_UP_PASSES },
  });
  worker.unref();
  let stopping = false;
  let holdTimer: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(holdTimer);
    holdTimer = undefined;
    commits.release();
  };
  worker.on('message', (message) => {
    if (message === 'release') return release();
    if (message !== 'hold' || stopping) return;
    // Called between commits (a transaction never spans a turn), so nothing is half-written.
    commits.hold();
    holdTimer = setTimeout(release, MAX_HOLD_MS);
    holdTimer.unref();
    worker.postMessage('held');
  });
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      release();
      if (!stopping && db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      resolve();
    });
  });
  worker.on('error', () => undefined); // 'exit' follows and restores the automatic checkpoint
  return async () => {
    stopping = true;
    release();
    worker.ref(); // an unref'd worker would let the process end with close() still pending
    worker.postMessage('stop');
    await exited;
  };
}
