/**
 * A real CLI of the repository in a child process, run from its TypeScript source with tsx (the
 * `@tenure/source` condition resolves workspace packages to their source, as in the vitest
 * projects): one that serves until stopped (`startCliProcess`), or one run to its end
 * (`runCliProcess`). Killing it with SIGKILL is a real crash: nothing of the process survives but its
 * files. The environment is built from scratch (PATH, HOME, TMPDIR plus the caller's), so a
 * DATABASE_URL or SMTP_URL of the developer's shell cannot leak in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface CliProcessOptions {
  /** Absolute path of the CLI's TypeScript entry (e.g. `packages/server/src/cli.ts`). */
  cli: string;
  args: readonly string[];
  env?: Record<string, string>;
  /** Given one stdout line, returns the URL the process listens on once the line says it, else null. */
  readyUrl: (line: string) => string | null;
  /** Called with every stdout line, in order, from the first. */
  onLine?: (line: string) => void;
  /** What the process is called in error messages. */
  name: string;
  startTimeoutMs?: number;
}

export interface CliProcess {
  /** The URL `readyUrl` found. */
  readonly url: string;
  readonly pid: number;
  /** Every stdout line so far. */
  readonly lines: readonly string[];
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal once the process is gone. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** True while the process runs. */
  alive(): boolean;
  /** SIGKILL: a crash. Resolves once the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM; resolves with the exit code, or rejects when the process is still there after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<number | null>;
}

const children = new Set<ChildProcess>();

/** Spawns the CLI from source in the repository's root, with PATH, HOME, TMPDIR and `env` only. */
function spawnCli(cli: string, args: readonly string[], env: Record<string, string>): ChildProcess {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR']) if (process.env[key] !== undefined) base[key] = process.env[key]!;
  return spawn(process.execPath, ['--conditions=@tenure/source', '--import', 'tsx', cli, ...args], {
    cwd: repoRoot,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** What a CLI process run to its end left. */
export interface CliRun {
  /** The exit code; null when it was killed (at the time limit). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Given a CLI entry, its arguments and extra environment variables, runs it to its end and resolves
 * with its exit code and output; SIGKILLs it after `timeoutMs` (90 s by default), so a process that
 * serves instead of exiting ends the test with code null. Not pure: spawns a process.
 *
 * @example
 * const { code, stderr } = await runCliProcess({ cli, args: ['serve'], env: { PORT: 'abc' } });
 */
export function runCliProcess(options: { cli: string; args: readonly string[]; env?: Record<string, string>; timeoutMs?: number }): Promise<CliRun> {
  const child = spawnCli(options.cli, options.args, options.env ?? {});
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** SIGKILLs every process `startCliProcess` started that still runs; resolves once they are gone. */
export async function killCliProcesses(): Promise<void> {
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
 * Given a CLI entry, its arguments and a way to read its URL off stdout, starts it and resolves once
 * it has printed the URL. Rejects, with the child's stderr, if it exits or stays silent for
 * `startTimeoutMs` (20 s by default). Not pure: spawns a process.
 *
 * @example
 * const sim = await startCliProcess({ cli, args: ['serve', '--port', '0'], name: 'simulator', readyUrl: (l) => /listening on (\S+)/.exec(l)?.[1] ?? null });
 */
export async function startCliProcess(options: CliProcessOptions): Promise<CliProcess> {
  const { cli, args, env = {}, readyUrl, onLine, name, startTimeoutMs = 20_000 } = options;
  const child = spawnCli(cli, args, env);
  children.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    });
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const lines: string[] = [];
  let pending = '';
  let onUrl: (url: string) => void = () => {};
  const urlSeen = new Promise<string>((resolve) => (onUrl = resolve));
  child.stdout!.setEncoding('utf8').on('data', (text: string) => {
    pending += text;
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const line of complete) {
      lines.push(line);
      onLine?.(line);
      const url = readyUrl(line);
      if (url !== null) onUrl(url);
    }
  });

  let timer: NodeJS.Timeout | undefined;
  const exitedEarly = exited.then(({ code, signal }) => {
    throw new Error(`${name} ${args.join(' ')} exited (${code ?? signal}) before listening:\n${stderr}`);
  });
  exitedEarly.catch(() => {}); // a later exit (a crash the test caused) is not a start failure
  const url = await Promise.race([
    urlSeen,
    exitedEarly,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${name} did not print its URL within ${startTimeoutMs} ms:\n${stderr}`)), startTimeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));

  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    pid: child.pid!,
    lines,
    stderr: () => stderr,
    exited,
    alive: running,
    async crash() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    async stop(timeoutMs = 15_000) {
      if (running()) child.kill('SIGTERM');
      let timeout: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        exited,
        new Promise<never>((_resolve, reject) => {
          timeout = setTimeout(() => reject(new Error(`${name} did not stop within ${timeoutMs} ms of SIGTERM:\n${stderr}`)), timeoutMs);
        }),
      ]).finally(() => clearTimeout(timeout));
      return result.code;
    },
  };
}
