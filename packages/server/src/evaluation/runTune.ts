/**
 * `tenure tune`: run the core's tune on a history, judge the starting and the tuned weights on the
 * holdout as `tenure backtest --config` will (calibration fitted on the training period), print
 * both, and write the config file.
 */
import { tuneHistory, type GroupedHistory, type TenureConfig } from '@tenure/core';
import type { DataIo } from '../cli/storeData/dataIo.js';
import { errorLine } from '../store/openStore.js';
import { writeConfigFile } from './configFileIo.js';
import type { EvaluationArgs } from './evaluationArgs.js';
import { optionErrorLine, windowOptionsOf } from './evaluationOptions.js';
import { formatTune, type TuneSummary } from './formatTune.js';
import { changedWeights, judgeHistory } from './holdoutFigures.js';
import { loadInputsWith, terminalProgress } from './loadInputs.js';
import { spillHistory } from './spillHistory.js';
import { formatDurationText, formatInstant } from './timeText.js';

/** Quotes an argument for a shell when it needs it. */
const shellWord = (word: string) => (/^[\w./:@%+=-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/**
 * Given the parsed arguments and the io, tunes and resolves with the exit code: 0 the config file
 * was written (tuned, or the starting weights when nothing beat them on the holdout, said plainly),
 * 2 bad input (one line), 1 the file could not be written.
 *
 * @example
 * const code = await runTune(args, io);
 */
export async function runTune(args: EvaluationArgs, io: DataIo): Promise<number> {
  const fail = (code: number, message: string) => (io.stderr(`tenure tune: ${message}\n`), code);
  // The history is spilled to a temporary file indexed by customer and walked back one customer
  // at a time, as `tenure backtest` does (docs/backtesting.md): the walk keeps only the samples.
  const inputs = await loadInputsWith(args, io, spillHistory, (s) => s.tally);
  if (!inputs.ok) return fail(2, inputs.error);
  const { config: start } = inputs.value;
  const spilled = inputs.value.history;
  const history = spilled.tally;
  try {
    return await tuneSpilled(spilled.history);
  } finally {
    spilled.close();
  }

  async function tuneSpilled(grouped: GroupedHistory): Promise<number> {
    const window = windowOptionsOf(args, grouped.span, start);
    const bar = terminalProgress(io, 'tune: searching', 'steps');
    const result = tuneHistory(grouped, { ...window, holdout: args.holdout, seed: args.seed, rounds: args.rounds, onProgress: (done, total) => bar?.update(done, total) });
    if (!result.ok) {
      bar?.finish('tune: stopped');
      return fail(2, optionErrorLine(result.errors));
    }
    const report = result.value;
    bar?.finish(`tune: ${report.evaluated} weightings scored in ${(bar.elapsedMs() / 1000).toFixed(1)}s`);

    const scoring = { horizon_ms: args.horizonMs, ...(args.lapseMs === undefined ? {} : { lapse_ms: args.lapseMs }) };
    const judge = (config: TenureConfig) => judgeHistory(grouped, report.training.cutoffs, report.holdout.cutoffs, scoring, config);
    const startJudged = judge(start);
    const candidate = report.candidate === start ? null : judge(report.candidate);
    const chosen = report.improved && candidate !== null ? candidate : startJudged;
    const holdout = report.holdout.cutoffs;
    const training = report.training.cutoffs;
    const startLabel = args.config === undefined ? 'default' : args.config;

    const tuned = {
      events: args.events,
      format: args.format,
      horizon: formatDurationText(args.horizonMs),
      step: formatDurationText(args.stepMs),
      seed: args.seed,
      rounds: args.rounds,
      holdout_share: args.holdout,
      started_from: startLabel,
      improved: report.improved,
      reason: report.reason,
      training: { from: formatInstant(training[0]!), to: formatInstant(training.at(-1)!), cutoffs: training.length },
      holdout: { from: formatInstant(holdout[0]!), to: formatInstant(holdout.at(-1)!), cutoffs: holdout.length, start: startJudged.holdout, tuned: candidate?.holdout ?? null },
    };
    try {
      // The calibration's provenance: the training cutoffs it was fitted on.
      await writeConfigFile(args.out!, report.config, { ...chosen.calibration, window: { from: training[0]!, to: training.at(-1)! } }, tuned);
    } catch (error) {
      return fail(1, `cannot write ${args.out}: ${errorLine(error)}`);
    }

    const check = ['tenure', 'backtest', '--events', args.events, ...(args.format === 'ndjson' ? [] : ['--format', args.format]), '--config', args.out!]
      .concat(['--horizon', tuned.horizon, '--step', tuned.step, '--from', tuned.holdout.from, '--to', tuned.holdout.to])
      .concat(args.lapseMs === undefined ? [] : ['--lapse', formatDurationText(args.lapseMs)])
      .map(shellWord)
      .join(' ');
    if (args.json) {
      io.stdout(`${JSON.stringify({ improved: report.improved, reason: report.reason, evaluated: report.evaluated, out: args.out, check, training: report.training, holdout: { cutoffs: holdout, start: startJudged.holdout, tuned: candidate?.holdout ?? null }, config: report.config, calibration: chosen.calibration })}\n`);
      return 0;
    }
    const summary: TuneSummary = {
      events: args.events,
      read: { count: history.read, unit: history.unit },
      startLabel,
      start: startJudged.holdout,
      tuned: candidate?.holdout ?? null,
      changes: changedWeights(start, report.config),
      out: args.out!,
      horizon_ms: args.horizonMs,
      step_ms: args.stepMs,
      seed: args.seed,
      rounds: args.rounds,
      check,
    };
    io.stdout(formatTune(report, summary));
    return 0;
  }
}
