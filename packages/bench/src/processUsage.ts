/**
 * What a phase of a bench costs the process: CPU time (user + system, every thread), wall time,
 * and peak resident memory sampled from a worker thread, so that a long synchronous call (a
 * backtest, a fold) is sampled while it blocks the main thread's event loop.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { collectGarbage } from './store/latency.js';

/** CPU time of a `process.cpuUsage` difference, in ms (user + system: every thread of the process). */
export const cpuMs = ({ user, system }: NodeJS.CpuUsage): number => (user + system) / 1000;

/** Bytes as whole megabytes (MiB), e.g. `512 MB`. */
export const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(0)} MB`;

/** How long a phase took. */
export interface Timed {
  cpuMs: number;
  wallMs: number;
}

/**
 * Waits until the process is idle (at most `maxMs`): after a collection V8 sweeps the heap on a
 * background thread, ~20 ms of CPU for the 20,000-customer history (measured 2026-11-29), which
 * `process.cpuUsage` counts in whatever is measured next; that work is the collection's, not the
 * next phase's. Idle: under 10 % of a 10 ms interval used.
 */
export async function settle(maxMs = 1_000): Promise<void> {
  for (let waited = 0; waited < maxMs; waited += 10) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (cpuMs(process.cpuUsage(before)) < 1) return;
  }
}

/** Collects garbage (when the bench has --expose-gc) and lets its sweeping end, then runs `fn` and returns its CPU and wall time. */
export async function timed(fn: () => unknown): Promise<Timed> {
  collectGarbage();
  await settle();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  return { cpuMs: cpuMs(process.cpuUsage(cpu)), wallMs: performance.now() - start };
}

// The worker writes the peak into shared memory; RSS is the process's, whichever thread reads it.
const SAMPLER = `
const { workerData, parentPort } = require('node:worker_threads');
const peak = new Float64Array(workerData.peak);
const sample = () => { const rss = process.memoryUsage.rss(); if (rss > peak[0]) peak[0] = rss; };
sample();
parentPort.postMessage('ready');
setInterval(sample, workerData.everyMs);
`;

/** A running sampler: `stop()` returns the peak RSS seen (bytes) and ends the worker. */
export interface RssSampler {
  stop(): number;
}

/**
 * Starts sampling the process's RSS every `everyMs` (default 50 ms) from a worker thread; resolves
 * once the worker has taken its first sample, so the worker's start-up is not inside the phase.
 */
export async function startRssSampler(everyMs = 50): Promise<RssSampler> {
  const peak = new Float64Array(new SharedArrayBuffer(8));
  peak[0] = process.memoryUsage.rss();
  const worker = new Worker(SAMPLER, { eval: true, workerData: { peak: peak.buffer, everyMs } });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  worker.unref();
  return {
    stop() {
      void worker.terminate();
      return Math.max(peak[0]!, process.memoryUsage.rss());
    },
  };
}
