/**
 * The trends section: two small SVG line charts of the last 30 UTC days (subscribers per risk band;
 * monthly revenue at risk), drawn by hand (no library), each with a title and description for
 * screen readers and the same figures in a visually hidden table. Days without figures are gaps.
 */
import { RISK_BANDS, utcDayOf, type RiskBand } from '@tenure/core';
import { api, currentEnvironment, query } from './api.js';
import { byId, colorClass, h, usd } from './dom.js';
import type { Trends, TrendDay } from './types.js';

const WIDTH = 360;
const HEIGHT = 140;
const PAD = { left: 44, right: 8, top: 8, bottom: 22 };
/** Reload at most this often (the figures of past days never change; today's moves slowly). */
const RELOAD_MS = 30_000;

/**
 * An SVG element. The two `<svg>` roots are in the page's markup, where the HTML parser puts them in
 * the SVG namespace; children are created in their namespace (read from them, not written out).
 */
function svg(tag: string, attrs: Record<string, string | number> = {}, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(byId('chart-bands').namespaceURI, tag) as SVGElement;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

interface Series {
  key: string;
  label: string;
  className: string;
  values: (number | null)[];
  format: (v: number) => string;
}

/** Fills one chart of the markup: a polyline per series (broken at missing days), a circle per known point, axis labels, legend and data table. */
function lineChart(id: string, title: string, description: string, days: TrendDay[], series: Series[]): void {
  const max = Math.max(1, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const x = (i: number) => PAD.left + (days.length <= 1 ? 0 : (i * (WIDTH - PAD.left - PAD.right)) / (days.length - 1));
  const y = (v: number) => PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - v / max);
  const children: SVGElement[] = [
    svg('title', { id: `${id}-title` }, title),
    svg('desc', { id: `${id}-desc` }, description),
    svg('line', { class: 'axis', x1: PAD.left, y1: HEIGHT - PAD.bottom, x2: WIDTH - PAD.right, y2: HEIGHT - PAD.bottom }),
    svg('line', { class: 'axis', x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: HEIGHT - PAD.bottom }),
    svg('text', { class: 'tick', x: PAD.left - 4, y: PAD.top + 8, 'text-anchor': 'end' }, series[0]!.format(max)),
    svg('text', { class: 'tick', x: PAD.left - 4, y: HEIGHT - PAD.bottom, 'text-anchor': 'end' }, '0'),
    svg('text', { class: 'tick', x: PAD.left, y: HEIGHT - 6 }, days[0]?.day.slice(5) ?? ''),
    svg('text', { class: 'tick', x: WIDTH - PAD.right, y: HEIGHT - 6, 'text-anchor': 'end' }, days[days.length - 1]?.day.slice(5) ?? ''),
  ];
  for (const s of series) {
    // Consecutive known days form one polyline; a missing day breaks it.
    let run: string[] = [];
    const flush = () => {
      if (run.length > 1) children.push(svg('polyline', { class: `line ${s.className}`, points: run.join(' ') }));
      run = [];
    };
    s.values.forEach((v, i) => {
      if (v === null) return flush();
      run.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`);
      children.push(
        svg('circle', { class: `point ${s.className}`, cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 2.5, 'data-series': s.key, 'data-day': days[i]!.day, 'data-value': v }, svg('title', {}, `${days[i]!.day}: ${s.label} ${s.format(v)}`)),
      );
    });
    flush();
  }
  byId(id).replaceChildren(...children);
  byId(`${id}-legend`).replaceChildren(...series.map((s) => h('li', {}, h('span', { class: `swatch ${s.className}` }), s.label)));
  byId(`${id}-data`).replaceChildren(
    h('caption', {}, title),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), ...series.map((s) => h('th', { scope: 'col' }, s.label)))),
    h('tbody', {}, ...days.map((d, i) => h('tr', {}, h('th', { scope: 'row' }, d.day), ...series.map((s) => h('td', {}, s.values[i] === null ? 'no figures' : s.format(s.values[i]!)))))),
  );
}

const BAND_CLASS = (band: RiskBand) => `band-${colorClass(band)}`;
let loaded: { at: number; environment: string; today: string | undefined } | null = null;

/**
 * Reads /api/dashboard/trends (at most every 30 s per environment, and at once when the service
 * clock `now`, if given, is on another UTC day than the charts' last one) and draws the two charts.
 */
export async function loadTrends(force = false, now?: number): Promise<void> {
  const environment = currentEnvironment();
  const sameDay = now === undefined || loaded?.today === utcDayOf(now);
  if (!force && loaded !== null && loaded.environment === environment && sameDay && performance.now() - loaded.at < RELOAD_MS) return;
  const t = await api<Trends>(`api/dashboard/trends${query({ days: 30, environment: environment === 'sandbox' ? 'sandbox' : undefined })}`);
  loaded = { at: performance.now(), environment, today: t.days.at(-1)?.day }; // monotonic: a throttle, not a time of day
  const count = (v: number) => String(Math.round(v));
  const bands: Series[] = RISK_BANDS.map((band) => ({ key: band, label: band, className: BAND_CLASS(band), values: t.days.map((d) => d.by_band?.[band]?.subscribers ?? null), format: count }));
  const revenue: Series[] = [{ key: 'revenue', label: 'revenue at risk', className: 'line-revenue', values: t.days.map((d) => d.at_risk?.monthly_value_usd ?? null), format: (v) => usd(v) }];
  const first = t.days[0]?.day ?? '';
  const last = t.days[t.days.length - 1]?.day ?? '';
  const known = t.days.filter((d) => d.source !== 'none').length;
  const notes = [
    `${known} of ${t.days.length} days with figures; today is live, earlier days are the service's last record of each day${t.days.some((d) => d.source === 'events') ? ' or, before it recorded, folded from the stored events' : ''}.`,
    t.backfill.skipped === null ? null : `Earlier days are missing: ${t.backfill.skipped}.`,
  ];
  lineChart('chart-bands', 'Subscribers per risk band, per day', `Daily subscribers in each band (critical, high, medium, low) from ${first} to ${last}, UTC.`, t.days, bands);
  lineChart('chart-revenue', 'Monthly revenue at risk, per day', `Daily summed monthly value of subscribers scoring ${t.days.at(-1)?.at_risk?.min_score ?? 60} or more, from ${first} to ${last}, UTC.`, t.days, revenue);
  byId('trends-notes').replaceChildren(...notes.filter((n): n is string => n !== null).map((n) => h('p', { class: 'muted small' }, n)));
}
