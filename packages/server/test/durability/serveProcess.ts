/**
 * A real `tenure serve` in a child process, run from the TypeScript source with tsx (the
 * `@tenure/source` condition resolves the workspace packages to their source, as in the vitest
 * projects). Killing it with SIGKILL is a real crash: nothing of the process survives but its files
 * and its database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

export interface ServeProcess {
  /** `http://127.0.0.1:<port>`, read from the startup log line. */
  readonly url: string;
  readonly pid: number;
  /** Every JSON log line printed so far. */
  readonly logs: Record<string, unknown>[];
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: a crash. Resolves once the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM: a graceful stop (in-flight requests and pending alerts finish). Resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Every child still running, so `killServes` can clean up after a failed test. */
const children = new Set<ChildProcess>();

/** Kills (SIGKILL) every `tenure serve` this module started that is still running. */
export async function killServes(): Promise<void> {
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

/**
 * Given the `serve` flags (after `--port 0 --host 127.0.0.1`) and extra environment variables,
 * starts `tenure serve` and resolves once it has logged the URL it listens on. The environment is
 * built from scratch (PATH, HOME, TMPDIR plus `env`), so a DATABASE_URL or SMTP_URL of the
 * developer's shell cannot leak in. Rejects, with the child's stderr, if it exits or stays silent
 * for `startTimeoutMs`.
 */
export async function startServe(args: readonly string[], env: Record<string, string> = {}, startTimeoutMs = 20_000): Promise<ServeProcess> {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR']) if (process.env[key] !== undefined) base[key] = process.env[key]!;
  const child = spawn(process.execPath, ['--conditions=@tenure/source', '--import', 'tsx', cli, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd: repoRoot,
    env: { ...base, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    });
  });

  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  let pending = '';
  let onUrl: (url: string) => void = () => {};
  const urlSeen = new Promise<string>((resolve) => (onUrl = resolve));
  child.stdout!.setEncoding('utf8').on('data', (text: string) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (typeof entry['url'] === 'string') onUrl(entry['url']);
      } catch {
        logs.push({ msg: line, unparsed: true });
      }
    }
  });

  let timer: NodeJS.Timeout | undefined;
  const exitedEarly = exited.then(({ code, signal }) => {
    throw new Error(`tenure serve ${args.join(' ')} exited (${code ?? signal}) before listening:\n${stderr}`);
  });
  exitedEarly.catch(() => {}); // a later exit (a crash the test caused) is not a start failure
  const url = await Promise.race([
    urlSeen,
    exitedEarly,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`tenure serve did not log its URL within ${startTimeoutMs} ms:\n${stderr}`)), startTimeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));

  return {
    url,
    pid: child.pid!,
    logs,
    exited,
    async crash() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      let timeout: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        exited,
        new Promise<never>((_resolve, reject) => {
          timeout = setTimeout(() => reject(new Error(`tenure serve did not stop within 15 s of SIGTERM:\n${stderr}`)), 15_000);
        }),
      ]).finally(() => clearTimeout(timeout));
      return result.code;
    },
  };
}
