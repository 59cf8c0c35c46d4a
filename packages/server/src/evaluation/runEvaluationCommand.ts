/** The evaluation commands of the `tenure` CLI: `backtest` and `tune` (parse, help, run). */
import type { CliResult } from '../cli/runCli.js';
import type { DataIo } from '../cli/storeData/dataIo.js';
import { parseEvaluationArgs, type EvaluationCommand } from './evaluationArgs.js';
import { BACKTEST_HELP, TUNE_HELP } from './evaluationHelp.js';
import { runBacktest } from './runBacktest.js';
import { runTune } from './runTune.js';

const HELP: Record<EvaluationCommand, string> = { backtest: BACKTEST_HELP, tune: TUNE_HELP };

/**
 * Given `backtest` or `tune`, its arguments and the io, runs it and resolves with the exit code:
 * 0 done, 2 bad input (one line on stderr: a flag, a file, an option the core refuses), 1 an
 * output file could not be written.
 *
 * @example
 * const { code } = await runEvaluationCommand('backtest', ['--events', 'history.ndjson'], io);
 */
export async function runEvaluationCommand(command: EvaluationCommand, argv: readonly string[], io: DataIo): Promise<CliResult> {
  const parsed = parseEvaluationArgs(command, argv);
  if (!parsed.ok) return io.stderr(`tenure ${command}: ${parsed.error} (see tenure ${command} --help)\n`), { code: 2 };
  if (parsed.help) return io.stdout(HELP[command]), { code: 0 };
  return { code: command === 'backtest' ? await runBacktest(parsed.args, io) : await runTune(parsed.args, io) };
}
