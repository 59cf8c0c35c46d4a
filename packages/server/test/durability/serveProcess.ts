/**
 * A real `tenure serve` in a child process (testkit's `startCliProcess`). Killing it with SIGKILL
 * is a real crash: nothing of the process survives but its files and its database.
 */
import { fileURLToPath } from 'node:url';
import { killCliProcesses, startCliProcess, type CliProcess } from '@tenure/testkit';

const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

export interface ServeProcess extends Pick<CliProcess, 'url' | 'pid' | 'exited' | 'crash' | 'stop'> {
  /** Every JSON log line printed so far (a line that is not JSON as `{ msg, unparsed: true }`). */
  readonly logs: Record<string, unknown>[];
}

/** Kills (SIGKILL) every `tenure serve` (and every other CLI process) the tests started that is still running. */
export const killServes = killCliProcesses;

function logEntry(line: string): Record<string, unknown> | null {
  if (line.trim() === '') return null;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return { msg: line, unparsed: true };
  }
}

/**
 * Given the `serve` flags (after `--port 0 --host 127.0.0.1`) and extra environment variables,
 * starts `tenure serve` and resolves once it has logged the URL it listens on. Rejects, with the
 * child's stderr, if it exits or stays silent for `startTimeoutMs`.
 */
export async function startServe(args: readonly string[], env: Record<string, string> = {}, startTimeoutMs = 20_000): Promise<ServeProcess> {
  const logs: Record<string, unknown>[] = [];
  const child = await startCliProcess({
    cli,
    args: ['serve', '--port', '0', '--host', '127.0.0.1', ...args],
    env: { LOG_LEVEL: 'info', ...env },
    name: 'tenure serve',
    startTimeoutMs,
    onLine: (line) => {
      const entry = logEntry(line);
      if (entry !== null) logs.push(entry);
    },
    readyUrl: (line) => {
      const entry = logEntry(line);
      return typeof entry?.['url'] === 'string' ? entry['url'] : null;
    },
  });
  return { url: child.url, pid: child.pid, logs, exited: child.exited, crash: child.crash, stop: child.stop };
}
