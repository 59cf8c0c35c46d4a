/**
 * A real `tenure-billing-sim` in a child process (testkit's `startCliProcess`). A request that
 * crashes the simulator ends this process, which is what the edge tests must be able to see.
 */
import { fileURLToPath } from 'node:url';
import { killCliProcesses, startCliProcess } from '@tenure/testkit';

const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

export interface SimProcess {
  readonly url: string;
  readonly port: number;
  /** Everything written to stderr so far. */
  readonly stderr: () => string;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  readonly exited: Promise<number | null>;
  /** True while the process runs. */
  alive(): boolean;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** SIGKILLs every simulator (and every other CLI process) the tests started that still runs. */
export const killSims = killCliProcesses;

/** Starts `tenure-billing-sim serve --port 0` with `args` and resolves once it prints its URL. */
export async function startSim(args: readonly string[] = [], env: Record<string, string> = {}): Promise<SimProcess> {
  const child = await startCliProcess({
    cli,
    args: ['serve', '--port', '0', '--host', '127.0.0.1', '--seed', 'edge', ...args],
    env,
    name: 'simulator',
    readyUrl: (line) => /listening on (http:\/\/\S+)/.exec(line)?.[1] ?? null,
  });
  const exited = child.exited.then(({ code }) => code);
  return {
    url: child.url,
    port: Number(new URL(child.url).port),
    stderr: child.stderr,
    exited,
    alive: child.alive,
    stop: () => child.stop(60_000),
  };
}
