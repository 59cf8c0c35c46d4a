/** Starts a benchmark target in its own process, pinned to one core, and reads its CPU time. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface RunningTarget {
  url: string;
  pid: number;
  /** User + system CPU time of the target process so far, in microseconds. */
  cpuMicros(): number;
  /** Resident memory of the target process now (VmRSS), in bytes. */
  rssBytes(): number;
  stop(): Promise<void>;
}

/** A free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ

function cpuMicrosOf(pid: number): number {
  // /proc/<pid>/stat: fields 14 and 15 are utime and stime in clock ticks (after the "(comm)" field).
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / CLOCK_TICKS_PER_SECOND) * 1e6;
}

function rssBytesOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? NaN : Number(match[1]) * 1024;
}

/** Resolves once `url` answers anything; throws if `child` exits first or `deadlineMs` passes. */
export async function waitUntilUp(url: string, child: ChildProcess, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`target exited with ${child.exitCode}`);
    try {
      await fetch(url, { method: 'GET' });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`target at ${url} did not come up`);
}

/**
 * Spawns `node <args>` pinned to `cores` (a taskset list: `0`, or `0,1` for both) with `taskset`,
 * with PORT set, and waits until it answers.
 */
export async function runTarget(args: string[], env: Record<string, string>, cores: number | string): Promise<RunningTarget> {
  const port = await freePort();
  const child = spawn('taskset', ['-c', String(cores), process.execPath, ...args], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, child, 20_000);
  const pid = child.pid!;
  return {
    url,
    pid,
    cpuMicros: () => cpuMicrosOf(pid),
    rssBytes: () => rssBytesOf(pid),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
