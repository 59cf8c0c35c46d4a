/** `tenure backtest`: read a history, run the core's backtest, print the table (or JSON), write the HTML report. */
import { writeFile } from 'node:fs/promises';
import { backtestHistory } from '@tenure/core';
import type { DataIo } from '../cli/storeData/dataIo.js';
import { errorLine } from '../store/openStore.js';
import { backtestHtml } from './backtestHtml.js';
import type { EvaluationArgs } from './evaluationArgs.js';
import { optionErrorLine, windowOptionsOf } from './evaluationOptions.js';
import { formatBacktest, type BacktestContext } from './formatBacktest.js';
import { loadInputsWith, terminalProgress } from './loadInputs.js';
import { spillHistory } from './spillHistory.js';

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
  // The history is spilled to a temporary file indexed by customer and walked back one customer
  // at a time: memory stays flat however many customers the file holds (docs/backtesting.md).
  const inputs = await loadInputsWith(args, io, spillHistory, (s) => s.tally);
  if (!inputs.ok) return fail(2, inputs.error);
  const { config, calibration } = inputs.value;
  const spilled = inputs.value.history;
  const history = spilled.tally;

  const bar = terminalProgress(io, 'backtest: evaluating', 'customers');
  let result;
  try {
    result = backtestHistory(spilled.history, {
      ...windowOptionsOf(args, spilled.history.span, config),
      ...(calibration === null ? {} : { calibration }),
      onProgress: (done, total) => bar?.update(done, total),
    });
  } finally {
    spilled.close();
  }
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
