/**
 * Small inline SVG charts for the HTML report: an x–y chart of lines and dots on 0..1 axes, and a
 * bar chart. No script, no external asset; each chart is an `img` with a title and a description
 * for screen readers, each series a `<title>` on hover. Pure (strings in, string out).
 */

/**
 * Given text, returns it safe inside HTML or SVG text and attribute values. Pure.
 *
 * @example
 * escapeHtml('a < b & "c"'); // 'a &lt; b &amp; &quot;c&quot;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export interface ChartPoint {
  x: number;
  y: number;
  /** Shown on hover (a dot's `<title>`). */
  label?: string;
}

export interface ChartSeries {
  name: string;
  /** `line`: a polyline through the points; `dots`: a circle per point. */
  kind: 'line' | 'dots';
  /** A CSS class of the report's stylesheet (colour, dash). */
  className: string;
  points: readonly ChartPoint[];
}

export interface XyChart {
  id: string;
  title: string;
  description: string;
  xLabel: string;
  yLabel: string;
  series: readonly ChartSeries[];
}

const WIDTH = 360;
const HEIGHT = 300;
const PAD = { left: 48, right: 12, top: 12, bottom: 40 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;
const round = (n: number) => Math.round(n * 10) / 10;
const px = (x: number) => round(PAD.left + Math.min(1, Math.max(0, x)) * PLOT_W);
const py = (y: number) => round(PAD.top + (1 - Math.min(1, Math.max(0, y))) * PLOT_H);

function frame(id: string, title: string, description: string, body: string[]): string {
  return [
    `<svg id="${id}" class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc">`,
    `<title id="${id}-title">${escapeHtml(title)}</title>`,
    `<desc id="${id}-desc">${escapeHtml(description)}</desc>`,
    ...body,
    '</svg>',
  ].join('\n');
}

function axes(xLabel: string, yLabel: string): string[] {
  const out = [`<rect class="plot" x="${PAD.left}" y="${PAD.top}" width="${PLOT_W}" height="${PLOT_H}"/>`];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(`<line class="grid" x1="${px(t)}" y1="${PAD.top}" x2="${px(t)}" y2="${PAD.top + PLOT_H}"/>`);
    out.push(`<line class="grid" x1="${PAD.left}" y1="${py(t)}" x2="${PAD.left + PLOT_W}" y2="${py(t)}"/>`);
    out.push(`<text class="tick" x="${px(t)}" y="${PAD.top + PLOT_H + 14}" text-anchor="middle">${t}</text>`);
    out.push(`<text class="tick" x="${PAD.left - 6}" y="${py(t) + 4}" text-anchor="end">${t}</text>`);
  }
  out.push(`<text class="axis" x="${PAD.left + PLOT_W / 2}" y="${HEIGHT - 6}" text-anchor="middle">${escapeHtml(xLabel)}</text>`);
  out.push(`<text class="axis" transform="translate(12 ${PAD.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(yLabel)}</text>`);
  return out;
}

/**
 * Given a chart of series on 0..1 axes, returns its SVG: a line series is one `<polyline>` whose
 * `data-points` is its number of points, a dot series one `<circle>` per point. Pure.
 *
 * @example
 * xyChart({ id: 'roc', title: 'ROC curve', description: '...', xLabel: 'false positive rate', yLabel: 'true positive rate', series: [...] });
 */
export function xyChart(chart: XyChart): string {
  const body = axes(chart.xLabel, chart.yLabel);
  for (const s of chart.series) {
    if (s.kind === 'line') {
      const points = s.points.map((p) => `${px(p.x)},${py(p.y)}`).join(' ');
      body.push(`<polyline class="${s.className}" data-series="${escapeHtml(s.name)}" data-points="${s.points.length}" points="${points}"><title>${escapeHtml(s.name)}</title></polyline>`);
    } else {
      body.push(`<g class="${s.className}" data-series="${escapeHtml(s.name)}" data-points="${s.points.length}">`);
      for (const p of s.points) body.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="4"><title>${escapeHtml(p.label ?? s.name)}</title></circle>`);
      body.push('</g>');
    }
  }
  // Bottom right: the curves of a useful score rise on the left.
  const legend = chart.series.map(
    (s, i) => `<text class="legend ${s.className}" x="${PAD.left + PLOT_W - 8}" y="${PAD.top + PLOT_H - 10 - (chart.series.length - 1 - i) * 14}" text-anchor="end">${escapeHtml(s.name)}</text>`,
  );
  return frame(chart.id, chart.title, chart.description, [...body, ...legend]);
}

export interface Bar {
  label: string;
  value: number | null;
  /** Shown on hover and under the bar. */
  note: string;
}

/**
 * Given bars and a reference value drawn as a dashed line (e.g. lift 1, the base rate), returns a
 * bar chart's SVG scaled to the largest value; a bar without a value is left empty. Pure.
 *
 * @example
 * barChart({ id: 'lift', title: 'Lift by band', description: '...', yLabel: 'lift', bars, reference: 1 });
 */
export function barChart(chart: { id: string; title: string; description: string; yLabel: string; bars: readonly Bar[]; reference: number }): string {
  const max = Math.max(chart.reference, ...chart.bars.map((b) => b.value ?? 0)) * 1.1;
  const y = (v: number) => round(PAD.top + (1 - v / max) * PLOT_H);
  const slot = PLOT_W / Math.max(1, chart.bars.length);
  const body = [`<rect class="plot" x="${PAD.left}" y="${PAD.top}" width="${PLOT_W}" height="${PLOT_H}"/>`];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) body.push(`<text class="tick" x="${PAD.left - 6}" y="${y(t * max) + 4}" text-anchor="end">${(t * max).toFixed(1)}</text>`);
  chart.bars.forEach((bar, i) => {
    const x = round(PAD.left + i * slot + slot * 0.2);
    const top = y(bar.value ?? 0);
    body.push(`<rect class="bar" x="${x}" y="${top}" width="${round(slot * 0.6)}" height="${round(PAD.top + PLOT_H - top)}"><title>${escapeHtml(`${bar.label}: ${bar.note}`)}</title></rect>`);
    body.push(`<text class="tick" x="${round(x + slot * 0.3)}" y="${PAD.top + PLOT_H + 14}" text-anchor="middle">${escapeHtml(bar.label)}</text>`);
    body.push(`<text class="tick" x="${round(x + slot * 0.3)}" y="${PAD.top + PLOT_H + 28}" text-anchor="middle">${escapeHtml(bar.value === null ? '–' : bar.value.toFixed(2))}</text>`);
  });
  body.push(`<line class="reference" x1="${PAD.left}" y1="${y(chart.reference)}" x2="${PAD.left + PLOT_W}" y2="${y(chart.reference)}"><title>${chart.reference}</title></line>`);
  body.push(`<text class="axis" transform="translate(12 ${PAD.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(chart.yLabel)}</text>`);
  return frame(chart.id, chart.title, chart.description, body);
}
