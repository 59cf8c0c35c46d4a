/**
 * One subscriber: state, product, counters, lifecycle fields, the churn probability of its score
 * (with a calibration), the score breakdown as one bar per
 * signal (the bars sum to the score), every recommendation, the next change without a new event,
 * the key dates of its record, its timeline of received events (paged, newest first), its dispatch
 * history and a "dispatch now" button.
 */
import { formatChurnChance } from '@tenure/core';
import { api, currentEnvironment, environmentQuery, query } from './api.js';
import { churnHorizon } from './calibration.js';
import { dispatchHistory } from './dispatchHistory.js';
import { bandChip, byId, h, scoreBar, usd, when, words } from './dom.js';
import { offerButton } from './offerButton.js';
import type { EventsPage, OfferView, Recommendation, StoredEvent, SubscriberDashboard, SubscriberView } from './types.js';

/** Events per page of the timeline. */
const TIMELINE_PAGE = 20;

const SIGNALS: Record<string, string> = {
  state: 'state',
  billing_failures: 'billing failures',
  renewals: 'renewals',
  inactivity: 'inactivity',
  trial_conversion: 'trial conversion',
  cancel_reason: 'cancel reason',
};

function facts(s: SubscriberView): HTMLElement {
  const r = s.revenue;
  const rows: [string, string][] = [
    ['State', words(s.state)],
    ['Product', String(s['product_id'] ?? '–')],
    ['Revenue', r === null ? '–' : `${r.price ?? '?'} ${r.currency ?? ''}${r.period_ms ? ` every ${Math.round(r.period_ms / 86_400_000)} days` : ''} (${r.store ?? 'store unknown'}), ${usd(s.monthly_value_usd)}/mo`],
    ['Period ends', when(s['period_ends_at'] as number | null)],
    ['Billing failures', String(s['billing_failures'])],
    ['Renewals', String(s['renewals'])],
    ['Events', String(s['event_count'])],
    ['Grace ends', when(s['grace_ends_at'] as number | null)],
    ['Auto-resumes', when(s['auto_resume_at'] as number | null)],
    ['Cancel reason', String(s['cancel_reason'] ?? '–')],
    ['Temporary access until', when(s['temporary_access_until'] as number | null)],
    ['Promotional access until', when(s['promotional_access_until'] as number | null)],
    ['Original app user id', String(s['original_app_user_id'] ?? '–')],
    ['Aliases', ((s['aliases'] as string[] | undefined) ?? []).join(', ') || '–'],
  ];
  return h('dl', { id: 'facts' }, ...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

/** Key dates of the record, in time order: what the store keeps without an event query. */
function keyDates(s: SubscriberView): HTMLElement {
  const dates: [string, unknown][] = [
    ['first event', s['first_event_at']],
    ['trial started', s['trial_started_at']],
    ['trial ends', s['trial_ends_at']],
    ['trial converted', s['trial_converted_at']],
    ['last activity', s['last_activity_at']],
    ['last event', s['last_event_at']],
    ['period ends', s['period_ends_at']],
  ];
  const known = dates.filter((d): d is [string, number] => typeof d[1] === 'number').sort((a, b) => a[1] - b[1]);
  return h('ol', { class: 'recs', id: 'key-dates' }, ...known.map(([label, at]) => h('li', {}, `${when(at)}: ${label}`)));
}

/** One received event: when, its type, and the fields that say what it did. */
function timelineItem(e: StoredEvent): HTMLElement {
  const details = [
    e['product_id'] ? String(e['product_id']) : null,
    e['period_type'] ? words(String(e['period_type']).toLowerCase()) : null,
    typeof e['price'] === 'number' ? `${e['price']} ${String(e['currency'] ?? '')}`.trim() : null,
    e['cancel_reason'] ? `reason: ${words(String(e['cancel_reason']).toLowerCase())}` : null,
    e['expiration_reason'] ? `reason: ${words(String(e['expiration_reason']).toLowerCase())}` : null,
  ].filter((d): d is string => d !== null);
  return h(
    'li',
    { 'data-event-id': e.id, 'data-type': e.type },
    h('time', {}, when(e.event_timestamp_ms)),
    ' ',
    h('b', {}, words(e.type.toLowerCase())),
    details.length > 0 ? h('span', { class: 'muted' }, ` · ${details.join(' · ')}`) : null,
  );
}

/** The most events the events route answers in one page. */
const TIMELINE_MAX_PAGE = 200;

/**
 * The timeline of received events, newest first, a page at a time with a "Show older events" button.
 * Resolves once its first page is in, so a panel drawn again never shows it empty; that first page
 * holds `shown` events (a page at least), so a live refresh keeps the older pages already opened.
 */
async function timeline(id: string, onError: (error: unknown) => void, shown: number): Promise<HTMLElement> {
  const list = h('ol', { class: 'timeline', id: 'timeline', 'aria-label': 'Received events, newest first' });
  const more = h('button', { type: 'button', id: 'timeline-more', hidden: true }, 'Show older events') as HTMLButtonElement;
  const box = h('div', {}, list, h('p', {}, more));
  let cursor: string | undefined;
  const load = async (limit: number) => {
    more.disabled = true;
    try {
      const environment = currentEnvironment() === 'sandbox' ? 'sandbox' : undefined;
      const page = await api<EventsPage>(`api/subscribers/${encodeURIComponent(id)}/events${query({ limit, cursor, environment })}`);
      list.append(...page.items.map(timelineItem));
      if (list.childElementCount === 0) list.append(h('li', { class: 'muted' }, 'No events stored.'));
      cursor = page.next_cursor ?? undefined;
      more.hidden = page.next_cursor === null;
    } catch (error) {
      onError(error);
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener('click', () => void load(TIMELINE_PAGE));
  await load(Math.min(TIMELINE_MAX_PAGE, Math.max(TIMELINE_PAGE, shown)));
  return box;
}

/** Events of `id`'s timeline on the page now (0 when another subscriber, or none, is shown). */
function timelineShown(id: string): number {
  const body = byId('subscriber-body');
  return body.dataset['customer'] === id ? body.querySelectorAll('#timeline li[data-event-id]').length : 0;
}

function breakdown(s: SubscriberView): HTMLElement {
  const entries = Object.entries(s.breakdown);
  const span = Math.max(100, entries.reduce((sum, [, v]) => sum + Math.abs(v), 0));
  const sum = entries.reduce((total, [, v]) => total + v, 0);
  const bars = entries.map(([signal, points]) => {
    const fill = h('span', { class: points < 0 ? 'negative' : '' });
    fill.style.left = '0';
    fill.style.width = `${(Math.abs(points) / span) * 100}%`;
    return h(
      'div',
      { class: 'signal', 'data-signal': signal, 'data-points': points },
      h('span', {}, SIGNALS[signal] ?? words(signal)),
      h('div', { class: 'track', role: 'img', 'aria-label': `${SIGNALS[signal] ?? signal}: ${points} points` }, fill),
      h('b', { class: 'num' }, points > 0 ? `+${points}` : points),
    );
  });
  const clamped = sum !== s.risk_score ? ` (the sum ${sum}, clamped to 0–100)` : '';
  return h('div', { class: 'breakdown', id: 'breakdown' }, ...bars, h('p', { class: 'muted small' }, `Score ${s.risk_score}${clamped}.`));
}

/** One recommendation, with its offer's button when one is configured for its action. */
const recommendation = (r: Recommendation, offer: HTMLElement | null = null) =>
  h('li', { 'data-action': r.action }, h('b', {}, words(r.action)), h('span', { class: 'tag' }, r.urgency), h('span', { class: 'tag' }, `#${r.priority}`), h('br'), r.reason, offer);

/** Counts calls of `loadSubscriber`: only the latest one draws, so a slow earlier answer never covers a newer one. */
let latestLoad = 0;

/**
 * Reads the subscriber's view, recommendations, dashboard extras and timeline, and renders them
 * (with `message` under the button) in one step, unless a later call started meanwhile.
 */
export async function loadSubscriber(id: string, onError: (error: unknown) => void, message = ''): Promise<void> {
  const load = ++latestLoad;
  const path = `api/subscribers/${encodeURIComponent(id)}`;
  const env = environmentQuery();
  const [view, rec, extra, horizon, events] = await Promise.all([
    api<SubscriberView>(`${path}${env}`),
    api<{ recommendations: Recommendation[] }>(`${path}/recommend${env}`),
    api<SubscriberDashboard>(`api/dashboard/subscribers/${encodeURIComponent(id)}${env}`),
    churnHorizon(),
    timeline(id, onError, timelineShown(id)),
  ]);
  if (load !== latestLoad) return;
  const p = view.churn_probability;
  const chance = p === undefined || horizon === null ? null : h('span', { id: 'churn-chance', 'data-churn': p }, ` · ${formatChurnChance(p, horizon)}`);
  const sandbox = currentEnvironment() === 'sandbox';
  byId('subscriber-title').textContent = `Subscriber ${view.customer_id}`;
  const status = h('p', { role: 'status', class: 'muted', id: 'dispatch-status' }, message);
  const button = h('button', { type: 'button', id: 'dispatch-now' }, 'Dispatch now') as HTMLButtonElement;
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = 'Dispatching…';
    try {
      const result = await api<{ deliveries: number; outcomes?: Record<string, number> }>(`${path}/dispatch`, { method: 'POST', body: {} });
      const outcomes = Object.entries(result.outcomes ?? {}).filter(([, n]) => n > 0).map(([o, n]) => `${n} ${words(o)}`);
      await loadSubscriber(id, onError, `Done: ${result.deliveries} deliveries${outcomes.length ? ` (${outcomes.join(', ')})` : ''}.`);
    } catch (error) {
      onError(error);
    } finally {
      button.disabled = false;
    }
  });
  const offers = new Map(((view['offers'] as OfferView[] | undefined) ?? []).map((o) => [o.action, o]));
  const offerFor = (action: string): HTMLElement | null => {
    const offer = offers.get(action);
    return offer === undefined || sandbox ? null : offerButton(view.customer_id, offer, (text) => loadSubscriber(id, onError, text));
  };
  const next = extra.next_change_at === null ? 'never without a new event' : when(extra.next_change_at);
  const body = byId('subscriber-body');
  body.dataset['customer'] = id;
  body.replaceChildren(
    h('div', { class: 'score-line' }, scoreBar(view.risk_score, view.risk_band), ' ', bandChip(view.risk_band), chance),
    h('p', { id: 'next-change' }, 'Score next changes: ', h('b', {}, next)),
    h(
      'div',
      { class: 'details' },
      h('div', {}, h('h3', {}, 'Record'), facts(view)),
      h('div', {}, h('h3', {}, 'Score breakdown'), breakdown(view), h('h3', {}, 'Recommendations'), h('ol', { class: 'recs', id: 'recommendations' }, ...rec.recommendations.map((r) => recommendation(r, offerFor(r.action))))),
      h(
        'div',
        {},
        h('h3', {}, 'Key dates'),
        keyDates(view),
        h('h3', {}, 'Timeline'),
        events,
      ),
    ),
    h('h3', {}, 'Dispatch history'),
    ...(sandbox ? [h('p', { class: 'muted', id: 'dispatches' }, 'Sandbox subscribers are never alerted.')] : [dispatchHistory(extra.dispatches, id, (message) => void loadSubscriber(id, onError, message).catch(onError), onError), h('p', {}, button), status]),
  );
}
