/**
 * The at-risk list: filters, sort, keyset pages (the API's cursors), rows with coloured score bars,
 * and each row's churn probability when the service has a calibration.
 */
import { formatChurnPercent, formatHorizon } from '@tenure/core';
import { api, currentEnvironment, query } from './api.js';
import { churnHorizon } from './calibration.js';
import { bandChip, byId, h, scoreBar, usd, words } from './dom.js';
import type { AtRiskItem, AtRiskPage } from './types.js';

interface Filters {
  band: string;
  state: string;
  min_score: string;
  sort: string;
}

const PAGE_SIZE = 25;

/** The link that opens a subscriber's view. */
export const subscriberHref = (id: string): string => `#subscriber/${encodeURIComponent(id)}`;

function row(item: AtRiskItem, calibrated: boolean): HTMLElement {
  const top = item.top_recommendation;
  const p = item.churn_probability;
  return h(
    'tr',
    { 'data-customer': item.customer_id, 'data-score': item.risk_score, 'data-band': item.risk_band, 'data-value': item.monthly_value_usd },
    h('td', {}, h('a', { href: subscriberHref(item.customer_id), title: `customer ${item.customer_id}` }, item.app_user_id ?? item.customer_id)),
    h('td', {}, words(item.state)),
    h('td', {}, scoreBar(item.risk_score, item.risk_band)),
    h('td', {}, bandChip(item.risk_band)),
    calibrated ? h('td', { class: 'num churn', 'data-churn': p ?? '' }, p === undefined ? '–' : formatChurnPercent(p)) : null,
    h('td', {}, top === null ? '–' : words(top.action)),
    h('td', {}, top === null ? '–' : top.urgency),
    h('td', { class: 'num' }, usd(item.monthly_value_usd)),
  );
}

/** The list's state and its controls. `load()` reads the current page again (live updates call it). */
export function createAtRiskList(onError: (error: unknown) => void) {
  const form = byId<HTMLFormElement>('filters');
  const rows = byId('at-risk-rows');
  const total = byId('list-total');
  const churnHead = byId('churn-head');
  const next = byId<HTMLButtonElement>('next-page');
  const first = byId<HTMLButtonElement>('first-page');
  let filters: Filters = { band: '', state: '', min_score: '', sort: 'score' };
  /** Cursors of the pages read so far: the current page is the last (undefined = first page). */
  let cursor: string | undefined;
  let nextCursor: string | null = null;
  let pageIndex = 0;

  async function load(): Promise<void> {
    try {
      const environment = currentEnvironment() === 'sandbox' ? 'sandbox' : undefined;
      const [page, horizon] = await Promise.all([api<AtRiskPage>(`api/at-risk${query({ ...filters, environment, limit: PAGE_SIZE, cursor })}`), churnHorizon()]);
      churnHead.hidden = horizon === null;
      if (horizon !== null) churnHead.textContent = `Churn within ${formatHorizon(horizon)}`;
      rows.replaceChildren(...page.items.map((item) => row(item, horizon !== null)));
      if (page.items.length === 0) rows.append(h('tr', {}, h('td', { colspan: horizon === null ? 7 : 8, class: 'muted' }, 'Nobody matches these filters.')));
      const from = pageIndex * PAGE_SIZE + 1;
      const shown = page.items.length === 0 ? 'none shown' : `showing ${from}–${from + page.items.length - 1}`;
      total.textContent = `${page.total.subscribers} subscribers match, ${usd(page.total.monthly_value_usd)} a month; ${shown}.`;
      nextCursor = page.next_cursor;
      next.disabled = nextCursor === null;
      first.disabled = cursor === undefined;
    } catch (error) {
      onError(error);
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    filters = { band: String(data.get('band') ?? ''), state: String(data.get('state') ?? ''), min_score: String(data.get('min_score') ?? ''), sort: String(data.get('sort') ?? 'score') };
    cursor = undefined;
    pageIndex = 0;
    void load();
  });
  next.addEventListener('click', () => {
    if (nextCursor === null) return;
    cursor = nextCursor;
    pageIndex += 1;
    void load();
  });
  first.addEventListener('click', () => {
    cursor = undefined;
    pageIndex = 0;
    void load();
  });
  /** Back to the first page (another environment was chosen). */
  const reset = () => {
    cursor = undefined;
    pageIndex = 0;
    return load();
  };
  return { load, reset };
}
