/** Small DOM and formatting helpers (no framework: the page is a few tables and tiles). */
import { colorForBand, type RiskBand } from '@tenure/core';

type Child = Node | string | number | null | undefined | false;

/** Creates an element with attributes (`class`, `data-*`, aria…) and children. */
export function h(tag: string, attrs: Record<string, string | number | boolean | undefined> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'number' ? String(c) : c);
  return el;
}

/** The element with that id (the page's markup guarantees it). */
export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

/** The colour class of a band: the core's `colorForBand`, as alerts use. */
export const colorClass = (band: RiskBand): string => `color-${colorForBand(band)}`;

/** A score as a coloured bar with its number. */
export function scoreBar(score: number, band: RiskBand): HTMLElement {
  const fill = h('span', { class: colorClass(band) });
  fill.style.width = `${Math.max(0, Math.min(100, score))}%`; // CSSOM, which the page's CSP allows (a style attribute it would not)
  return h(
    'div',
    { class: 'score', 'data-score': score, 'data-color': colorForBand(band) },
    h('b', {}, score),
    h('div', { class: 'bar', role: 'img', 'aria-label': `score ${score} of 100, ${band}` }, fill),
  );
}

/** A band as a labelled chip in its colour. */
export const bandChip = (band: RiskBand): HTMLElement => h('span', { class: `chip ${colorClass(band)}`, 'data-band': band }, band);

/** US dollars, e.g. "$9.99". */
export const usd = (value: number): string => value.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

/** An epoch-ms time as a short UTC date and time, or "–". */
export function when(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** Snake-case words as text: `billing_issue` → "billing issue". */
export const words = (s: string): string => s.replace(/_/g, ' ');
