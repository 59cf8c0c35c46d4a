/**
 * `tenure backtest --html`: the report as ONE self-contained page (inline CSS and SVG, no script,
 * no external asset or URL): the pooled figures and warnings, the ROC and precision-recall curves,
 * the calibration plot, lift by band and the per-cutoff table. Pure.
 */
import { MIN_POSITIVES, utcDayOf, type BacktestReport, type EvaluationMetrics } from '@tenure/core';
import { calibrationPoints, prPoints, rocPoints } from './curves.js';
import { metricsNote, type BacktestContext } from './formatBacktest.js';
import { auc, brier, count, lift, percent } from './reportText.js';
import { barChart, escapeHtml, xyChart } from './svgChart.js';
import { formatDurationText, formatInstant } from './timeText.js';

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1180px; padding: 0 16px; color: #1d2330; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
p.meta { color: #4a5468; margin: 0 0 12px; }
table { border-collapse: collapse; margin: 8px 0; } th, td { padding: 4px 10px; border-bottom: 1px solid #e2e6ee; text-align: right; white-space: nowrap; }
th:first-child, td:first-child, td.note { text-align: left; } td.note { color: #9a3412; }
ul.warnings li { color: #9a3412; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; } figure { margin: 0; } figcaption { font-size: 13px; color: #4a5468; max-width: 360px; }
svg.chart { background: #fff; } .plot { fill: #fafbfd; stroke: #c9d0dc; } .grid { stroke: #eceff5; }
.tick { font-size: 10px; fill: #4a5468; } .axis { font-size: 11px; fill: #1d2330; } .legend { font-size: 11px; }
polyline { fill: none; stroke-width: 2; } .curve { stroke: #2456c7; } text.curve { fill: #2456c7; }
.chance { stroke: #98a2b3; stroke-dasharray: 4 4; stroke-width: 1; } text.chance { fill: #667085; }
.observed circle { fill: #c2410c; } text.observed { fill: #c2410c; }
.bar { fill: #2456c7; } .reference { stroke: #98a2b3; stroke-dasharray: 4 4; }
text.legend { paint-order: stroke; stroke: #fafbfd; stroke-width: 4px; stroke-dasharray: none; }
`;

const figuresRow = (label: string, m: EvaluationMetrics) =>
  `<tr><td>${escapeHtml(label)}</td><td>${count(m.subscribers)}</td><td>${count(m.churned)}</td><td>${percent(m.base_rate)}</td><td>${auc(m.roc_auc)}</td><td>${auc(m.pr_auc)}</td><td>${brier(m.brier)}</td><td>${m.bands.map((b) => lift(b.lift)).join(' / ')}</td><td class="note">${escapeHtml(metricsNote(m))}</td></tr>`;
const FIGURES_HEAD = '<tr><th scope="col">{first}</th><th scope="col">subscribers</th><th scope="col">churners</th><th scope="col">base rate</th><th scope="col">ROC AUC</th><th scope="col">PR AUC</th><th scope="col">Brier</th><th scope="col">lift critical / high / medium / low</th><th scope="col">note</th></tr>';

/**
 * Given a backtest report and where it came from, returns the HTML page. Pure.
 *
 * @example
 * await writeFile('report.html', backtestHtml(report, context));
 */
export function backtestHtml(report: BacktestReport, context: BacktestContext): string {
  const { pooled, cutoffs, history } = report;
  const roc = rocPoints(pooled.histogram);
  const pr = prPoints(pooled.histogram);
  const deciles = calibrationPoints(pooled, report.calibration).filter((d) => d.subscribers > 0);
  const rocChart = xyChart({
    id: 'roc',
    title: 'ROC curve (pooled)',
    description: `True positive rate against false positive rate, flagging from the highest score down, one point per distinct score. ROC AUC ${auc(pooled.roc_auc)}; the dashed diagonal is a coin (0.5).`,
    xLabel: 'false positive rate',
    yLabel: 'true positive rate (recall)',
    series: [
      { name: 'chance', kind: 'line', className: 'chance', points: [{ x: 0, y: 0 }, { x: 1, y: 1 }] },
      { name: `score (AUC ${auc(pooled.roc_auc)})`, kind: 'line', className: 'curve', points: roc },
    ],
  });
  const prChart = xyChart({
    id: 'pr',
    title: 'Precision-recall curve (pooled)',
    description: `Precision against recall, flagging from the highest score down, one point per distinct score. PR AUC ${auc(pooled.pr_auc)}; the dashed line is the base rate (${percent(pooled.base_rate)}), what a random ranking reaches.`,
    xLabel: 'recall',
    yLabel: 'precision',
    series: [
      { name: `base rate ${percent(pooled.base_rate)}`, kind: 'line', className: 'chance', points: [{ x: 0, y: pooled.base_rate ?? 0 }, { x: 1, y: pooled.base_rate ?? 0 }] },
      { name: `score (PR AUC ${auc(pooled.pr_auc)})`, kind: 'line', className: 'curve', points: pr },
    ],
  });
  const calibrationChart = xyChart({
    id: 'calibration',
    title: 'Calibration by score decile (pooled)',
    description: `For each score decile with subscribers, the observed churn rate within ${formatDurationText(report.horizon_ms)} against the calibrated probability; on the dashed diagonal they agree. Calibration ${report.brier_calibration === 'given' ? 'from the config file' : 'fitted on these outcomes (in-sample)'}.`,
    xLabel: 'calibrated probability',
    yLabel: 'observed churn rate',
    series: [
      { name: 'perfect calibration', kind: 'line', className: 'chance', points: [{ x: 0, y: 0 }, { x: 1, y: 1 }] },
      {
        name: 'score deciles',
        kind: 'dots',
        className: 'observed',
        points: deciles.map((d) => ({
          x: d.calibrated ?? 0,
          y: d.churn_rate ?? 0,
          label: `scores ${d.from_score}–${d.to_score}: ${count(d.subscribers)} subscribers, observed ${percent(d.churn_rate)}, calibrated ${percent(d.calibrated)}`,
        })),
      },
    ],
  });
  const liftChart = barChart({
    id: 'lift',
    title: 'Lift by band (pooled)',
    description: `Each band's churn rate divided by the base rate; above the dashed line at 1 a band catches more churners than chance. ${pooled.bands.map((b) => `${b.band} ${lift(b.lift)}`).join(', ')}.`,
    yLabel: 'lift',
    reference: 1,
    bars: pooled.bands.map((b) => ({ label: b.band, value: b.lift, note: `${count(b.subscribers)} subscribers, ${count(b.churned)} churned (${percent(b.churn_rate)})` })),
  });

  const warnings = [...report.warnings];
  if (context.read.rejected > 0) warnings.push(`${count(context.read.rejected)} ${context.read.unit} of the file were skipped as unreadable (first: ${context.read.first_rejection ?? 'unknown'}).`);
  const configLabel = context.config ?? 'default configuration';
  const body = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>tenure backtest: ${escapeHtml(context.events)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>Backtest of the risk score</h1>`,
    `<p class="meta">${escapeHtml(context.events)} (${escapeHtml(context.format)}): ${count(history.events)} events, ${count(history.activity)} activity reports, ${count(history.customers)} customers, from ${utcDayOf(history.first_at)} to ${utcDayOf(history.last_at)}. ` +
      `Horizon ${formatDurationText(report.horizon_ms)}; ${cutoffs.length} cutoffs every ${formatDurationText(context.step_ms)} from ${formatInstant(cutoffs[0]!.at)} to ${formatInstant(cutoffs.at(-1)!.at)}; ${escapeHtml(configLabel)}.</p>`,
    '<h2>Pooled figures</h2>',
    `<table>${FIGURES_HEAD.replace('{first}', '')}${figuresRow('all cutoffs', pooled)}</table>`,
    `<p class="meta">Brier: ${report.brier_calibration === 'given' ? 'of the calibration in the config file (out of sample when it was fitted on an earlier period)' : 'in-sample, the calibration was fitted on these outcomes'}. Under ${MIN_POSITIVES} churners a figure is not meaningful.</p>`,
    '<h2>Warnings</h2>',
    warnings.length === 0 ? '<p>None.</p>' : `<ul class="warnings">${warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`,
    '<h2>Curves</h2>',
    '<div class="charts">',
    `<figure>${rocChart}<figcaption>${pooled.churned === 0 || pooled.churned === pooled.subscribers ? 'No curve: it needs churners and stayers.' : 'Higher and further left is better; the area under it is the ROC AUC.'}</figcaption></figure>`,
    `<figure>${prChart}<figcaption>${pooled.churned === 0 ? 'No curve: there is no churner.' : 'Compare with the base rate: precision at the top of the list is what alerts are worth.'}</figcaption></figure>`,
    `<figure>${calibrationChart}<figcaption>Each dot is a score decile; hover for its counts.</figcaption></figure>`,
    `<figure>${liftChart}<figcaption>Is critical really more critical than high?</figcaption></figure>`,
    '</div>',
    '<h2>Per cutoff</h2>',
    `<table>${FIGURES_HEAD.replace('{first}', 'cutoff')}${cutoffs.map((c) => figuresRow(formatInstant(c.at), c.metrics)).join('')}</table>`,
    '<h2>Calibration by score decile</h2>',
    `<table><tr><th scope="col">scores</th><th scope="col">subscribers</th><th scope="col">churners</th><th scope="col">observed</th><th scope="col">calibrated</th></tr>${deciles
      .map((d) => `<tr><td>${d.from_score}–${d.to_score}</td><td>${count(d.subscribers)}</td><td>${count(d.churned)}</td><td>${percent(d.churn_rate)}</td><td>${percent(d.calibrated)}</td></tr>`)
      .join('')}</table>`,
    '<p class="meta">How to read this report: docs/backtesting.md in the tenure repository.</p>',
    '</main>',
    '</body>',
    '</html>',
  ];
  return `${body.join('\n')}\n`;
}
