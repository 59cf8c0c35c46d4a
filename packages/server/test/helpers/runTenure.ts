/**
 * Runs `tenure <args>` from source in a child process (testkit's `runCliProcess`: tsx, the
 * `@tenure/source` condition, an environment of PATH, HOME, TMPDIR and `env` only), and resolves
 * with its exit code and output.
 */
import { fileURLToPath } from 'node:url';
import { runCliProcess, type CliRun } from '@tenure/testkit';

const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

/** What a finished `tenure` process left. */
export type TenureRun = CliRun;

/**
 * Given the arguments (and extra environment variables), runs the CLI to its end (SIGKILL after
 * `timeoutMs`, 90 s by default).
 *
 * @example
 * const { code, stdout } = await runTenure(['backtest', '--events', file, '--json']);
 */
export function runTenure(args: readonly string[], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<TenureRun> {
  return runCliProcess({ cli, args, ...options });
}
