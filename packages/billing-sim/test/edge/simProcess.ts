/**
 * A real `tenure-billing-sim` in a child process, from the TypeScript source with tsx (the
 * `@tenure/source` condition resolves workspace packages to their source). A request that crashes
 * the simulator ends this process, which is what the edge tests must be able to see.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
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

const children = new Set<ChildProcess>();

/** SIGKILLs every simulator this module started that still runs. */
export async function killSims(): Promise<void> {
  await Promise.all(
    [...children].map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return gone;
    }),
  );
  children.clear();
}

/** Starts `tenure-billing-sim serve --port 0` with `args` and resolves once it prints its URL. */
export async function startSim(args: readonly string[] = [], env: Record<string, string> = {}): Promise<SimProcess> {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR']) if (process.env[key] !== undefined) base[key] = process.env[key]!;
  const child = spawn(process.execPath, ['--conditions=@tenure/source', '--import', 'tsx', cli, 'serve', '--port', '0', '--host', '127.0.0.1', '--seed', 'edge', ...args], {
    cwd: repoRoot,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (children.delete(child), resolve(code))));
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  let stdout = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`simulator did not start within 20 s:\n${stderr}`)), 20_000);
    child.stdout!.setEncoding('utf8').on('data', (t: string) => {
      stdout += t;
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`simulator exited (${code}) before listening:\n${stderr}`));
    });
  });
  return {
    url,
    port: Number(new URL(url).port),
    stderr: () => stderr,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
