/**
 * What `tenure backtest` and `tenure tune` both do first: read the config file (if any) and the
 * history, with a progress bar on a terminal, each failure one line for exit code 2.
 */
import { DEFAULT_CONFIG, type Calibration, type TenureConfig } from '@tenure/core';
import { progressDisplay, type DataIo } from '../cli/storeData/dataIo.js';
import { createProgressReporter, formatCount, type ProgressReporter } from '../cli/storeData/progressReporter.js';
import { readConfigFile } from './configFileIo.js';
import type { EvaluationArgs } from './evaluationArgs.js';
import { calibrationProblem } from './evaluationOptions.js';
import { readHistory, type History, type HistoryTally, type ReadProgress } from './readHistory.js';

/** The inputs of a run: `H` is the history as read (in memory by default; spilled to disk for the backtest). */
export interface EvaluationInputs<H extends HistoryTally = History> {
  config: TenureConfig;
  /** The config file's calibration, null without one (or without a file). */
  calibration: Calibration | null;
  history: H;
}

/** Reads a history file into what a command walks. */
export type HistoryReader<H> = (path: string, format: EvaluationArgs['format'], onProgress: ReadProgress) => Promise<{ ok: true; value: H } | { ok: false; error: string }>;

/**
 * Given the io and a label, returns a progress bar on stderr when it is a terminal, else undefined
 * (a log or a pipe gets only the results).
 *
 * @example
 * const bar = terminalProgress(io, 'backtest: reading', 'bytes');
 * bar?.update(500, 1_000);
 */
export function terminalProgress(io: DataIo, label: string, unit: string): ProgressReporter | undefined {
  const display = progressDisplay(io);
  return display.tty ? createProgressReporter({ label, unit, write: io.stderr, ...display }) : undefined;
}

/**
 * Given the arguments and the io, resolves with the configuration, its calibration and the
 * history, or with the one line that says what is wrong with them.
 *
 * @example
 * const inputs = await loadInputs(args, io);
 * if (!inputs.ok) return fail(inputs.error);
 */
export async function loadInputs(args: EvaluationArgs, io: DataIo): Promise<{ ok: true; value: EvaluationInputs } | { ok: false; error: string }> {
  return loadInputsWith(args, io, readHistory, (h) => h);
}

/**
 * As `loadInputs`, reading the history with `read` (`tally` says what the file held, for the
 * progress bar's last line).
 *
 * @example
 * const inputs = await loadInputsWith(args, io, spillHistory, (s) => s.tally);
 */
export async function loadInputsWith<H>(
  args: EvaluationArgs,
  io: DataIo,
  read: HistoryReader<H>,
  tally: (history: H) => HistoryTally,
): Promise<{ ok: true; value: { config: TenureConfig; calibration: Calibration | null; history: H } } | { ok: false; error: string }> {
  let config = DEFAULT_CONFIG;
  let calibration: Calibration | null = null;
  if (args.config !== undefined) {
    const file = await readConfigFile(args.config);
    if (!file.ok) return file;
    ({ config, calibration } = file.value);
    const problem = calibrationProblem(calibration, args.horizonMs, args.config);
    if (problem !== null) return { ok: false, error: problem };
  }
  const bar = terminalProgress(io, `${args.command}: reading`, 'bytes');
  const history = await read(args.events, args.format, (bytes, total) => bar?.update(bytes, total));
  if (!history.ok) {
    bar?.finish(`${args.command}: stopped reading ${args.events}`);
    return history;
  }
  const h = tally(history.value);
  bar?.finish(`${args.command}: read ${formatCount(h.read)} ${h.unit} of ${args.events} in ${(bar.elapsedMs() / 1000).toFixed(1)}s: ${formatCount(h.kept)} records`);
  return { ok: true, value: { config, calibration, history: history.value } };
}
