/**
 * The child process of one store's storage bench: reads its options from the parent over IPC, runs
 * `runStore`, sends the figures back and exits. `runStoreInChild` is the parent's side; the child may
 * use both cores.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runStore, type StoreRun, type StoreRunOptions } from './storeRun.js';

type Reply = { ok: true; run: StoreRun } | { ok: false; error: string };

/** Given one store's options, runs its bench in a fresh process (same Node flags as this one) and resolves with its figures. */
export function runStoreInChild(options: StoreRunOptions): Promise<StoreRun> {
  return new Promise((resolve, reject) => {
    // The runner is pinned to one core; the store's process gets both, as a service would: pinned
    // to one, V8's background GC threads (concurrent marking, sweeping a multi-GB heap) take turns
    // with the main thread on that core, and each turn lands in some query's latency.
    const child = spawn('taskset', ['-c', '0,1', process.execPath, ...process.execArgv, fileURLToPath(import.meta.url)], {
      serialization: 'advanced',
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    let reply: Reply | undefined;
    child.on('message', (message) => {
      reply = message as Reply;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (reply?.ok === true) resolve(reply.run);
      else reject(new Error(`the ${options.kind} bench process failed (exit ${code}): ${reply?.ok === false ? reply.error : 'no result'}`));
    });
    child.send(options);
  });
}

if (process.send !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) {
  process.once('message', (options) => {
    runStore(options as StoreRunOptions).then(
      (run) => process.send!({ ok: true, run } satisfies Reply, () => process.exit(0)),
      (error: unknown) => process.send!({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies Reply, () => process.exit(1)),
    );
  });
}
