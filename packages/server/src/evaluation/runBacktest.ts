/** `tenure backtest`: read a history, run the core's backtest, print the table (or JSON), write the HTML report. */
import { writeFile } from 'node:fs/promises';
import { backtest } from '@tenure/core';
import type { DataIo } from '../cli/storeData/dataIo.js';
import { errorLine } from '../store/openStore.js';
import { backtestHtml } from './backtestHtml.js';
import type { EvaluationArgs } from './evaluationArgs.js';
import { optionErrorLine, windowOptions } from './evaluationOptions.js';
import { formatBacktest, type BacktestContext } from './formatBacktest.js';
import { loadInputs, terminalProgress } from './loadInputs.js';

/**
 * Given the parsed arguments and the io, runs the backtest and resolves with the exit code: 0 done,
 * 2 bad input (one line on stderr: the config file, the history file, or an option the core
 * refuses, named by its flag), 1 the HTML report could not be written.
 *
 * @example
 * const code = await runBacktest(args, io);
 */
export async function runBacktest(args: EvaluationArgs, io: DataIo): Promise<number> {
  const fail = (code: number, message: string) => (io.stderr(`tenure backtest: ${message}\n`), code);
  const inputs = await loadInputs(args, io);
  if (!inputs.ok) return fail(2, inputs.error);
  const { config, calibration, history } = inputs.value;

  const bar = terminalProgress(io, 'backtest: evaluating', 'customers');
  const result = backtest(history.records, {
    ...windowOptions(args, history.records, config),
    ...(calibration === null ? {} : { calibration }),
    onProgress: (done, total) => bar?.update(done, total),
  });
  if (!result.ok) {
    bar?.finish('backtest: stopped');
    return fail(2, optionErrorLine(result.errors));
  }
  const report = result.value;
  bar?.finish(`backtest: ${report.cutoffs.length} cutoffs evaluated in ${(bar.elapsedMs() / 1000).toFixed(1)}s`);

  const first = history.rejections[0];
  const context: BacktestContext = {
    events: args.events,
    format: args.format,
    read: { count: history.read, unit: history.unit, rejected: history.rejected, ignored: history.ignored, first_rejection: first === undefined ? null : `line ${first.line}, ${first.field}: ${first.message}` },
    config: args.config ?? null,
    step_ms: args.stepMs,
  };
  io.stdout(args.json ? `${JSON.stringify(report)}\n` : formatBacktest(report, context));
  if (args.html !== undefined) {
    try {
      await writeFile(args.html, backtestHtml(report, context));
    } catch (error) {
      return fail(1, `cannot write ${args.html}: ${errorLine(error)}`);
    }
    io.stderr(`tenure backtest: wrote ${args.html}\n`);
  }
  return 0;
}
