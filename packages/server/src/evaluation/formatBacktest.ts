/**
 * `tenure backtest`'s terminal report: what was read, the pooled figures, lift by band, one row
 * per cutoff, the calibration by score decile, which signals had data, and every warning, each
 * printed beside the numbers it is about. Pure.
 */
import { MIN_POSITIVES, RISK_BANDS, utcDayOf, type BacktestReport, type EvaluationMetrics } from '@tenure/core';
import { calibrationPoints } from './curves.js';
import { auc, brier, count, lift, NONE, percent, textTable } from './reportText.js';
import { formatDurationText, formatInstant } from './timeText.js';

/** Where the numbers came from, for the heading. */
export interface BacktestContext {
  events: string;
  format: string;
  /** Lines or rows read, left out as bad, left out as ignored (unapplied types, sandbox rows). */
  read: { count: number; unit: string; rejected: number; ignored: number; first_rejection: string | null };
  /** The config file scored with, or null for the defaults. */
  config: string | null;
  step_ms: number;
}

/**
 * Given a set of figures, returns the warning to print beside them, or '' when they can be read
 * as they are. Pure.
 *
 * @example
 * metricsNote(cutoff.metrics); // 'under 30 churners: figure not meaningful'
 */
export function metricsNote(m: Pick<EvaluationMetrics, 'subscribers' | 'churned'>): string {
  if (m.subscribers === 0) return 'no live subscriber';
  if (m.churned === 0) return 'no churner: no ROC or PR AUC';
  if (m.churned === m.subscribers) return 'every subscriber churned: no ROC AUC';
  return m.churned < MIN_POSITIVES ? `under ${MIN_POSITIVES} churners: figure not meaningful` : '';
}

const FIGURES = ['subscribers', 'churners', 'base rate', 'ROC AUC', 'PR AUC', 'Brier'];
const figures = (m: EvaluationMetrics) => [count(m.subscribers), count(m.churned), percent(m.base_rate), auc(m.roc_auc), auc(m.pr_auc), brier(m.brier)];

/**
 * Given a backtest report and where it came from, returns the report for a terminal. Pure.
 *
 * @example
 * io.stdout(formatBacktest(report, { events: 'history.ndjson', format: 'ndjson', ... }));
 */
export function formatBacktest(report: BacktestReport, context: BacktestContext): string {
  const { history, pooled, cutoffs } = report;
  const out: string[] = [];
  const read = context.read;
  out.push(
    `tenure backtest: ${context.events} (${context.format}): ${count(read.count)} ${read.unit}; ` +
      `${count(history.events)} events, ${count(history.activity)} activity reports, ${count(history.customers)} customers, ${count(history.duplicates)} repeated deliveries dropped`,
  );
  out.push(
    `History ${utcDayOf(history.first_at)} to ${utcDayOf(history.last_at)}; horizon ${formatDurationText(report.horizon_ms)}; ` +
      `${cutoffs.length} cutoff${cutoffs.length === 1 ? '' : 's'} every ${formatDurationText(context.step_ms)} from ${formatInstant(cutoffs[0]!.at)} to ${formatInstant(cutoffs.at(-1)!.at)}; ` +
      `config: ${context.config ?? 'defaults'}`,
  );

  const brierNote = report.brier_calibration === 'given' ? `Brier of the calibration in ${context.config ?? 'the config'}` : 'Brier in-sample (calibration fitted on these outcomes)';
  out.push('', `Pooled over ${cutoffs.length} cutoff${cutoffs.length === 1 ? '' : 's'} (a subscriber counts once per cutoff it is live at)`);
  out.push(...textTable(['cutoffs', ...FIGURES], [[`all ${cutoffs.length}`, ...figures(pooled)]], [[metricsNote(pooled), brierNote].filter((n) => n !== '').join('; ')]));

  out.push('', 'Lift by band (pooled): churn rate / base rate');
  out.push(
    ...textTable(
      ['band', 'subscribers', 'churners', 'churn rate', 'share of churners', 'lift'],
      pooled.bands.map((b) => [b.band, count(b.subscribers), count(b.churned), percent(b.churn_rate), percent(b.share_of_churners), lift(b.lift)]),
      pooled.bands.map((b) => (b.subscribers > 0 && b.churned < MIN_POSITIVES && b.churned > 0 ? `under ${MIN_POSITIVES} churners: figure not meaningful` : '')),
    ),
  );

  out.push('', `Per cutoff (lift by band: ${RISK_BANDS.join(' / ')})`);
  out.push(
    ...textTable(
      ['cutoff', ...FIGURES, 'lift by band'],
      cutoffs.map((c) => [formatInstant(c.at), ...figures(c.metrics), c.metrics.bands.map((b) => (b.lift === null ? NONE : b.lift.toFixed(1))).join(' / ')]),
      cutoffs.map((c) => metricsNote(c.metrics)),
    ),
  );

  out.push('', 'Calibration (pooled): observed churn rate per score decile vs the calibrated probability');
  const deciles = calibrationPoints(pooled, report.calibration);
  out.push(
    ...textTable(
      ['scores', 'subscribers', 'churners', 'observed', 'calibrated'],
      deciles.map((d) => [`${d.from_score}–${d.to_score}`, count(d.subscribers), count(d.churned), percent(d.churn_rate), percent(d.calibrated)]),
    ),
  );

  const signals = Object.entries(report.signals).map(([name, s]) => `${name} ${percent(s.share)}`);
  out.push('', `Signals non-zero (share of assessments): ${signals.join(', ')}`);

  const warnings = [...report.warnings];
  if (read.rejected > 0) warnings.push(`${count(read.rejected)} ${read.unit} of ${context.events} were skipped as unreadable (first: ${read.first_rejection ?? 'unknown'}).`);
  if (read.ignored > 0) warnings.push(`${count(read.ignored)} ${read.unit} left out: ${read.unit === 'rows' ? 'sandbox purchases' : 'event types tenure does not apply'}.`);
  out.push('', 'Warnings');
  out.push(...(warnings.length === 0 ? ['  none'] : warnings.map((w) => `  - ${w}`)));
  return `${out.join('\n')}\n`;
}
