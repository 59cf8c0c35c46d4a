/** `tenure tune`'s terminal report: the split, the starting and tuned configurations on the holdout, what changed, and the file written. Pure. */
import type { TuneReport } from '@tenure/core';
import { metricsNote } from './formatBacktest.js';
import type { HoldoutFigures } from './holdoutFigures.js';
import { auc, brier, count, textTable } from './reportText.js';
import { formatDurationText, formatInstant } from './timeText.js';

/** What the report says besides the core's tune report. */
export interface TuneSummary {
  events: string;
  read: { count: number; unit: string };
  /** How the starting configuration is called: `default`, or the --config file. */
  startLabel: string;
  start: HoldoutFigures;
  /** The best weights found, judged; null when the search moved nothing. */
  tuned: HoldoutFigures | null;
  changes: string[];
  out: string;
  horizon_ms: number;
  step_ms: number;
  seed: number;
  rounds: number;
  /** The command that reproduces the holdout figures of the written file. */
  check: string;
}

const row = (label: string, f: HoldoutFigures) => [label, count(f.subscribers), count(f.churned), auc(f.roc_auc), auc(f.pr_auc), brier(f.brier)];
const range = (cutoffs: readonly number[]) => `${cutoffs.length} cutoff${cutoffs.length === 1 ? '' : 's'} from ${formatInstant(cutoffs[0]!)} to ${formatInstant(cutoffs.at(-1)!)}`;

/**
 * Given the core's tune report and the summary, returns the report for a terminal. Pure.
 *
 * @example
 * io.stdout(formatTune(tuned, summary));
 */
export function formatTune(report: TuneReport, s: TuneSummary): string {
  const out = [
    `tenure tune: ${s.events}: ${count(s.read.count)} ${s.read.unit}; horizon ${formatDurationText(s.horizon_ms)}, a cutoff every ${formatDurationText(s.step_ms)}`,
    `Training: ${range(report.training.cutoffs)} (each horizon ends before the holdout). Holdout: ${range(report.holdout.cutoffs)}.`,
    `Searched ${count(report.evaluated)} weightings (seed ${s.seed}, at most ${s.rounds} rounds) for the training ROC AUC: ${auc(report.training.start.roc_auc)} → ${auc(report.training.tuned.roc_auc)}.`,
    '',
    'On the holdout (calibration fitted on the training period; Brier out of sample)',
    ...textTable(
      ['config', 'subscribers', 'churners', 'ROC AUC', 'PR AUC', 'Brier'],
      [row(s.startLabel, s.start), ...(s.tuned === null ? [] : [row('tuned', s.tuned)])],
      [metricsNote(s.start), ...(s.tuned === null ? [] : [metricsNote(s.tuned)])],
    ),
    '',
  ];
  if (report.improved) {
    out.push(`Improved: the tuned weights beat ${s.startLabel} on the holdout (ROC AUC ${auc(report.holdout.start.roc_auc)} → ${auc(report.holdout.tuned.roc_auc)}).`);
    out.push('Changed:', ...s.changes.map((c) => `  ${c}`));
    out.push(`Wrote ${s.out}: the tuned weights, the bands, and a calibration fitted on the training period.`);
  } else {
    out.push(`Could not improve: ${report.reason ?? 'no better weights were found.'}`);
    out.push(`Wrote ${s.out}: the ${s.startLabel === 'default' ? 'default' : 'starting'} weights and bands unchanged, with a calibration fitted on the training period.`);
  }
  out.push(`Check it: ${s.check}`);
  return `${out.join('\n')}\n`;
}
