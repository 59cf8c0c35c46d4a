/** The dashboard's DOM and formatting helpers: the shared ones (`h`, `byId`, `when`, `words`) and the risk colours'. */
import { colorForBand, type RiskBand } from '@tenure/core';

export { byId, h, when, words } from '@tenure/http-edge/page';
import { h } from '@tenure/http-edge/page';

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
