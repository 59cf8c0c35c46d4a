/**
 * `npm run bench -- instructions` (issue #21): webhook ingest counted in instructions, which the other
 * work on a shared VM does not move. Each target (bare node:http, `tenure serve` on the memory store
 * and on a SQLite file) runs under `valgrind --tool=callgrind` twice, answering `FIRST` and then `LAST`
 * webhooks from 50 connections; the difference of the two totals over `LAST - FIRST` is the
 * instructions of one webhook at steady state (start-up, warm-up and shutdown cancel out). User-space
 * instructions only: the kernel's share of a request (the socket reads and `writev`) is not counted, so
 * the ratio to bare reads lower than the req/s ratio of the timed bench, whose kernel time both pay.
 * Slow (valgrind runs node ~50 × slower: ~4 minutes a target); never part of a full run.
 * Env: BENCH_INSTRUCTION_TARGETS (`bare,memory,sqlite`), BENCH_INSTRUCTION_FIRST (2,000),
 * BENCH_INSTRUCTION_LAST (6,000).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitUntilUp } from './runTarget.js';
import { serveEnv, tenureCli } from './serveTarget.js';
import { bodySource, postWebhooks } from './webhookLoad.js';
import { syntheticWebhookStrings } from '../syntheticEvents.js';

type InstructionTarget = 'bare' | 'memory' | 'sqlite';

const CONNECTIONS = 50;

function argsOf(target: InstructionTarget, dir: string): string[] {
  if (target === 'bare') return [new URL('./targets/bareNodeHttp.mjs', import.meta.url).pathname];
  return [...tenureCli(), 'serve', '--store', target === 'memory' ? 'memory' : `sqlite:${join(dir, 'ingest.db')}`];
}

/** Runs `target` under callgrind, posts `amount` webhooks, stops it and returns the instructions it ran in all. */
async function countInstructions(target: InstructionTarget, bodies: readonly string[], amount: number): Promise<number> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tenure-instructions-'));
  // --single-threaded: V8's compiler and GC helpers on the main thread, so every run does the same work.
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${join(dir, 'callgrind.out')}`, process.execPath, '--single-threaded', ...argsOf(target, dir)], {
    env: { ...process.env, ...serveEnv('event'), PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntilUp(url, child, 180_000).catch((error: Error) => {
      throw new Error(`${target} under valgrind: ${error.message}: ${stderr.slice(-400)}`);
    });
    const load = await postWebhooks([url], bodySource(bodies), { amount, connections: CONNECTIONS, timeoutSeconds: 120 });
    if (load.non2xx > 0 || load.errors > 0) throw new Error(`${target}: ${load.non2xx} answers not 2xx, ${load.errors} errors`);
    child.kill('SIGTERM');
    await exited;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  const refs = /refs:\s+([\d,]+)/.exec(stderr);
  if (refs === null) throw new Error(`${target}: callgrind printed no total: ${stderr.slice(-400)}`);
  return Number(refs[1]!.replace(/,/g, ''));
}

/** Prints instructions a webhook for each target, and each service's ratio to bare when bare ran. */
export async function runInstructionBench(): Promise<void> {
  const targets = (process.env['BENCH_INSTRUCTION_TARGETS'] ?? 'bare,memory,sqlite').split(',') as InstructionTarget[];
  const first = Number(process.env['BENCH_INSTRUCTION_FIRST'] ?? 2_000);
  const last = Number(process.env['BENCH_INSTRUCTION_LAST'] ?? 6_000);
  console.log(`\ningest instructions (callgrind, user space): ${first.toLocaleString('en')} and ${last.toLocaleString('en')} webhooks per target, ${CONNECTIONS} connections, distinct ~1 KB bodies`);
  // One body sequence for every run: each run starts a fresh process and store, so ids stay distinct within it.
  const bodies = syntheticWebhookStrings(last);
  const perWebhook = new Map<InstructionTarget, number>();
  for (const target of targets) {
    const a = await countInstructions(target, bodies, first);
    const b = await countInstructions(target, bodies, last);
    const each = (b - a) / (last - first);
    perWebhook.set(target, each);
    const bare = perWebhook.get('bare');
    const ratio = bare === undefined || target === 'bare' ? '' : `, ${(bare / each).toFixed(2)} × bare`;
    console.log(`  ${target.padEnd(7)} ${Math.round(each).toLocaleString('en')} instructions a webhook${ratio}`);
  }
}
