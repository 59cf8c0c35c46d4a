/**
 * The subscriber's dispatch history: every attempt, newest first, with a webhook's endpoint and a
 * refusal's answer, a "Resend" button on a failed webhook delivery (`POST /api/dispatches/{id}/resend`)
 * and a "Revoke" button on a granted offer not revoked yet (`POST /api/dispatches/{id}/revoke`).
 */
import { api } from './api.js';
import { h, when, words } from './dom.js';
import { revokeButton } from './revokeButton.js';
import type { DispatchRecord, SubscriberDashboard } from './types.js';

/** A final refusal's answer as stored in `detail` (`{"status":410,"body":"..."}`), or null. */
function answerOf(r: DispatchRecord): { status: number; body: string } | null {
  if (r.channel !== 'webhook' || r.outcome !== 'failed' || r.detail === null) return null;
  try {
    const answer = JSON.parse(r.detail) as { status?: unknown; body?: unknown };
    return typeof answer.status === 'number' ? { status: answer.status, body: String(answer.body ?? '') } : null;
  } catch {
    return null;
  }
}

/** The channel and its target; for an offer what was granted (or revoked) and by whom ("offer: pro, by dashboard"). */
const channelText = (r: DispatchRecord): string =>
  r.channel === 'offer' || r.channel === 'offer_revoke'
    ? `${r.channel === 'offer' ? 'offer' : 'revoked'}: ${r.target ?? '?'}${r.actor ? `, by ${r.actor}` : ''}`
    : r.target === null
      ? r.channel
      : `${r.channel} → ${r.target}`;

/**
 * Given the history, the subscriber's id and what to do after a resend started or a revoke was done
 * (reload with a message), returns the table; the newest record of each failed webhook delivery
 * carries the resend button, each granted offer not revoked yet the revoke button.
 */
export function dispatchHistory(d: SubscriberDashboard['dispatches'], customerId: string, onResent: (message: string) => void, onError: (error: unknown) => void): HTMLElement {
  if (d.items.length === 0) return h('p', { class: 'muted', id: 'dispatches' }, 'No dispatch attempts yet.');
  const head = h('tr', {}, ...['When', 'Channel', 'Action', 'Outcome', 'Attempt', 'Trigger', ''].map((t) => h('th', { scope: 'col' }, t)));
  const seen = new Set<number>(); // items are newest first: the first row of a delivery is its newest
  // Grants revoked already (a revoke is a record of the grant's delivery): no Revoke button on them.
  const revoked = new Set(d.items.filter((r) => r.channel === 'offer_revoke' && r.outcome === 'sent').map((r) => r.delivery_id));
  const body = d.items.map((r) => {
    const newest = r.delivery_id !== null && !seen.has(r.delivery_id);
    if (r.delivery_id !== null) seen.add(r.delivery_id);
    const answer = answerOf(r);
    const outcome = answer === null ? words(r.outcome) + (r.error ? `: ${r.error}` : '') : `refused, HTTP ${answer.status}${answer.body === '' ? '' : `: ${answer.body}`}`;
    let action: HTMLElement | string = '';
    if (newest && r.channel === 'webhook' && r.outcome === 'failed') {
      const button = h('button', { type: 'button', class: 'resend', 'data-dispatch-id': r.id }, 'Resend') as HTMLButtonElement;
      button.addEventListener('click', async () => {
        button.disabled = true;
        try {
          await api(`api/dispatches/${r.id}/resend`, { method: 'POST', body: { actor: 'dashboard' } });
          onResent(`Resending to ${r.target ?? 'the endpoint'}: the same message (same webhook-id) as before.`);
        } catch (error) {
          button.disabled = false;
          onError(error);
        }
      });
      action = button;
    } else if (r.channel === 'offer' && r.outcome === 'sent' && !revoked.has(r.delivery_id ?? r.id)) {
      action = revokeButton(r, customerId, onResent);
    }
    return h(
      'tr',
      { 'data-outcome': r.outcome, 'data-channel': r.channel, 'data-delivery': r.delivery_id ?? '', ...(answer === null ? {} : { 'data-answer-status': answer.status }) },
      h('td', {}, when(r.at)),
      h('td', {}, channelText(r)),
      h('td', {}, words(r.action)),
      h('td', {}, outcome),
      h('td', {}, r.attempt),
      // An offer names its actor beside what it granted (channelText).
      h('td', {}, r.actor === null || r.channel === 'offer' || r.channel === 'offer_revoke' ? r.trigger : `${r.trigger} (${r.actor})`),
      h('td', {}, action),
    );
  });
  return h('div', { id: 'dispatches', class: 'table-wrap' }, h('table', {}, h('thead', {}, head), h('tbody', {}, ...body)));
}
