/**
 * WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside the commit that
 * crosses 1000 WAL pages, on the caller's thread: it copies pages into the database file and
 * fsyncs it, which on a VM disk stalls that one commit (and the event loop) for 30 to 150 ms.
 * Instead, the store's connection has `wal_autocheckpoint = 0` and a worker thread with its own
 * connection runs passive checkpoints on a timer; a passive checkpoint never blocks readers or the
 * writer, and the fsync happens on the worker's thread.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** How often the worker checkpoints; the WAL grows by at most what is written in this time. */
const INTERVAL_MS = 250;
/** SQLite's own default, restored if the worker stops unexpectedly so the WAL never grows unbounded. */
const AUTOCHECKPOINT_PAGES = 1000;

// Plain CommonJS evaluated in the worker, so the same code runs from the TypeScript source (tests)
// and from the build; the driver is required by absolute path because an eval'd worker resolves
// modules from the working directory, not from this package.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
db.pragma('cache_size = -2048');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** Stops the checkpoint worker (after its current checkpoint); resolves when it has exited. */
export type StopCheckpointer = () => Promise<void>;

/**
 * Given the store's open connection on a file, moves its WAL checkpoints to a worker thread and
 * returns how to stop it. The worker does not keep the process alive.
 */
export function startCheckpointer(db: Database.Database, path: string, busyTimeoutMs: number): StopCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  db.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path, busyTimeoutMs, intervalMs: INTERVAL_MS } });
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      if (!stopping && db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      resolve();
    });
  });
  worker.on('error', () => undefined); // 'exit' follows and restores the automatic checkpoint
  return async () => {
    stopping = true;
    worker.ref(); // an unref'd worker would let the process end with close() still pending
    worker.postMessage('stop');
    await exited;
  };
}
