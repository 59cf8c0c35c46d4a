/**
 * `npm run bench -- tune`: the core's `tune` on a generated population (issue #12), 100 k customers
 * over 12 months by default (`BENCH_TUNE_CUSTOMERS`, `BENCH_TUNE_MONTHS`), with what `tenure tune
 * --events FILE` runs by default: the history's default window (`defaultWindow`), 7-day step,
 * 30-day horizon, 25 % of the cutoffs held out, seed 1, 4 rounds. Then the default and the tuned
 * configs judged side by side as the CLI judges them (`judgeConfig`: a calibration fitted on the
 * training cutoffs, ROC AUC, PR AUC and an out-of-sample Brier score on the holdout). Times in CPU
 * of the process and wall, beside one backtest of the same history and window (the baseline).
 */
import { backtest, DAY_MS, DEFAULT_CONFIG, historySpan, tune, type TenureConfig, type TuneReport } from '@tenure/core';
import { changedWeights, defaultWindow, judgeConfig, type HoldoutFigures } from '@tenure/server';
import { timed } from '../processUsage.js';
import { printTable } from '../store/latency.js';
import { populationHistory } from './populationHistory.js';

const CUSTOMERS = Number(process.env['BENCH_TUNE_CUSTOMERS'] ?? 100_000);
const MONTHS = Number(process.env['BENCH_TUNE_MONTHS'] ?? 12);
const SEED = 'bench';
/** The `tenure tune` defaults. */
const HORIZON_MS = 30 * DAY_MS;
const STEP_MS = 7 * DAY_MS;
const TUNE = { holdout: 0.25, seed: 1, rounds: 4 } as const;

/** Runs the tune bench and prints its tables. */
export async function runTuneBench(): Promise<void> {
  const history = populationHistory({ customers: CUSTOMERS, months: MONTHS, seed: SEED });
  const { records } = history;
  const span = historySpan(records);
  if (span === null) throw new Error('the population has no record');
  const window = { ...defaultWindow(span, HORIZON_MS), step_ms: STEP_MS, horizon_ms: HORIZON_MS };
  console.log(
    `\ntune: ${CUSTOMERS.toLocaleString('en-US')} customers over ${MONTHS} months (seed ${SEED}): ${history.events.toLocaleString('en-US')} events, ` +
      `${history.activity.toLocaleString('en-US')} activity reports; holdout ${TUNE.holdout * 100} %, seed ${TUNE.seed}, ${TUNE.rounds} rounds, horizon 30 days, step 7 days`,
  );

  let cutoffs = 0;
  const once = await timed(() => {
    const report = backtest(records, window);
    if (!report.ok) throw new Error(`backtest refused: ${JSON.stringify(report.errors)}`);
    cutoffs = report.value.cutoffs.length;
  });
  let tuned: TuneReport | undefined;
  const search = await timed(() => {
    const result = tune(records, { ...window, ...TUNE });
    if (!result.ok) throw new Error(`tune refused: ${JSON.stringify(result.errors)}`);
    tuned = result.value;
  });
  const report = tuned!;
  const judged: { name: string; config: TenureConfig; holdout?: HoldoutFigures }[] = [
    { name: 'default', config: DEFAULT_CONFIG },
    { name: report.improved ? 'tuned (kept)' : 'tuned (not kept: the default is returned)', config: report.candidate },
  ];
  const judging = await timed(() => {
    for (const j of judged) j.holdout = judgeConfig(records, report.training.cutoffs, report.holdout.cutoffs, { horizon_ms: HORIZON_MS }, j.config).holdout;
  });

  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  const split = (c: readonly number[]) => `${c.length} cutoffs, ${day(c[0]!)} to ${day(c.at(-1)!)}`;
  console.log(`tune: training ${split(report.training.cutoffs)}; holdout ${split(report.holdout.cutoffs)}; ${report.evaluated} weightings scored`);
  const figure = (n: number | null | undefined, digits = 3) => (n === null || n === undefined ? '—' : n.toFixed(digits));
  printTable(
    ['config', 'training ROC AUC', 'holdout ROC AUC', 'holdout PR AUC', 'holdout Brier', 'holdout subscribers', 'churned'],
    judged.map((j, i) => {
      const training = i === 0 ? report.training.start : report.training.tuned;
      return [j.name, figure(training.roc_auc), figure(j.holdout?.roc_auc), figure(j.holdout?.pr_auc), figure(j.holdout?.brier, 4), (j.holdout?.subscribers ?? 0).toLocaleString('en-US'), (j.holdout?.churned ?? 0).toLocaleString('en-US')];
    }),
  );
  console.log(`tune: changed weights: ${changedWeights(DEFAULT_CONFIG, report.candidate).join(', ') || 'none'}`);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  printTable(
    ['phase', 'CPU', 'wall', '× one backtest (CPU)'],
    [
      [`one backtest, ${cutoffs} cutoffs (baseline)`, seconds(once.cpuMs), seconds(once.wallMs), 'baseline'],
      [`tune (walk once, ${report.evaluated} weightings)`, seconds(search.cpuMs), seconds(search.wallMs), (search.cpuMs / once.cpuMs).toFixed(2)],
      ['judging both configs (4 backtests, as the CLI)', seconds(judging.cpuMs), seconds(judging.wallMs), (judging.cpuMs / once.cpuMs).toFixed(2)],
    ],
  );
}
