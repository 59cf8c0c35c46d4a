/**
 * Runs `tenure <args>` from source in a child process (tsx, the `@tenure/source` condition), with an
 * environment of PATH, HOME and TMPDIR only, and resolves with its exit code and output.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

/** What a finished `tenure` process left. */
export interface TenureRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Given the arguments, runs the CLI to its end (SIGKILL after `timeoutMs`, 90 s by default).
 *
 * @example
 * const { code, stdout } = await runTenure(['backtest', '--events', file, '--json']);
 */
export function runTenure(args: readonly string[], timeoutMs = 90_000): Promise<TenureRun> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR']) if (process.env[key] !== undefined) env[key] = process.env[key]!;
  const child = spawn(process.execPath, ['--conditions=@tenure/source', '--import', 'tsx', cli, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}
