/**
 * `tenure backtest FILE --json` in a child process, as a user runs it (the built CLI), with the
 * child's own peak RSS (`process.resourceUsage().maxRSS`, read as it exits) and its CPU time.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What one run printed and cost. */
export interface BacktestRun {
  /** The report (`--json`). */
  report: { pooled: { roc_auc: number | null }; history: { customers: number; events: number } };
  peakRssBytes: number;
  cpuMs: number;
  wallMs: number;
}

const CLI = join(dirname(createRequire(import.meta.url).resolve('@tenure/server/package.json')), 'bin', 'tenure.js');
/** Loaded before the CLI: writes the process's peak RSS and CPU time as its last stderr line. */
const PRELOAD = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nbench-usage '+JSON.stringify({maxRSS:u.maxRSS,cpu:(u.userCPUTime+u.systemCPUTime)/1000})+'\\n')})`;

/**
 * Given a history file (NDJSON) and, optionally, the CPU cores to pin the child to (`taskset -c`),
 * runs `tenure backtest FILE --json` and resolves with the report, the child's peak RSS and CPU
 * time; rejects when it exits non-zero.
 *
 * @example
 * const run = await runBacktestProcess('/tmp/history.ndjson');
 */
export function runBacktestProcess(file: string, cores?: string): Promise<BacktestRun> {
  const started = performance.now();
  const args = ['--import', PRELOAD, CLI, 'backtest', file, '--json'];
  return new Promise((resolve, reject) => {
    const child =
      cores === undefined
        ? spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn('taskset', ['-c', cores, process.execPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const usage = /bench-usage (\{.*\})/.exec(err);
      if (code !== 0 || usage === null) return reject(new Error(`tenure backtest exited ${code}: ${err.slice(0, 500)}`));
      const { maxRSS, cpu } = JSON.parse(usage[1]!) as { maxRSS: number; cpu: number };
      resolve({ report: JSON.parse(out) as BacktestRun['report'], peakRssBytes: maxRSS * 1024, cpuMs: cpu, wallMs: performance.now() - started });
    });
  });
}
