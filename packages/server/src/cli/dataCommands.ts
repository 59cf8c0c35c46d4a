/** The data commands of the `tenure` CLI: `replay`, `export`, `import` (stub, being written). */
import type { CliIo, CliResult } from './runCli.js';

/**
 * Given a data command, its arguments, the environment and the io, runs it and resolves with the
 * exit code.
 *
 * @example
 * const { code } = await runDataCommand('export', ['--out', 'backup.ndjson'], process.env, io);
 */
export async function runDataCommand(
  command: 'replay' | 'export' | 'import',
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CliIo,
): Promise<CliResult> {
  void argv;
  void env;
  io.stderr(`tenure ${command}: not implemented yet\n`);
  return { code: 1 };
}
