/**
 * The Revoke button of a granted offer in the dispatch history: a click asks for confirmation in the
 * page (naming the entitlement and the customer), then revokes through
 * `POST api/dispatches/{id}/revoke` and shows RevenueCat's answer.
 */
import { fetchJson } from '@tenure/http-edge/page';
import { apiKeys } from './api.js';
import { h } from './dom.js';
import type { DispatchRecord } from './types.js';

/** What the revoke route answers (200, and 502 beside its error; other errors alone). */
interface RevokeAnswer {
  revenuecat?: { status: number | null; body: unknown };
  error?: { message?: string };
}

const answerText = (a: RevokeAnswer['revenuecat']): string =>
  a === undefined ? '' : ` RevenueCat answered ${a.status ?? 'nothing (unreachable)'}: ${JSON.stringify(a.body).slice(0, 300)}`;

/**
 * Given a grant's record, the subscriber's id and what to do after the revoke (reload the view with a message), returns
 * the button with its in-page confirmation and answer line.
 */
export function revokeButton(grant: DispatchRecord, customerId: string, afterRevoke: (message: string) => void): HTMLElement {
  const entitlement = grant.target ?? '?';
  const button = h('button', { type: 'button', class: 'revoke', 'data-dispatch-id': grant.id }, 'Revoke') as HTMLButtonElement;
  const answer = h('span', { role: 'status', class: 'muted small revoke-answer' });
  const question = `Revoke entitlement ${entitlement} granted to customer ${customerId}?`;
  const confirm = h('button', { type: 'button', class: 'revoke-confirm' }, 'Revoke') as HTMLButtonElement;
  const cancel = h('button', { type: 'button', class: 'revoke-cancel' }, 'Cancel') as HTMLButtonElement;
  const dialog = h('div', { class: 'offer-confirmation', role: 'alertdialog', 'aria-label': question, hidden: true }, h('p', {}, question), confirm, ' ', cancel);
  button.addEventListener('click', () => {
    dialog.hidden = false;
    button.disabled = true;
    confirm.focus();
  });
  cancel.addEventListener('click', () => {
    dialog.hidden = true;
    button.disabled = false;
  });
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    answer.textContent = 'Revoking…';
    try {
      const reply = await fetchJson(apiKeys, `api/dispatches/${grant.id}/revoke`, { method: 'POST', body: { actor: 'dashboard' } });
      const body = (reply.body ?? {}) as RevokeAnswer;
      if (reply.ok) {
        afterRevoke(`Revoked ${entitlement} from ${customerId}.${answerText(body.revenuecat)}`);
        return;
      }
      answer.textContent = `Not revoked (${reply.status}): ${body.error?.message ?? 'error'}.${answerText(body.revenuecat)}`;
    } catch (error) {
      answer.textContent = `Not revoked: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      dialog.hidden = true;
      confirm.disabled = false;
      button.disabled = false;
    }
  });
  return h('div', { class: 'revoke-box' }, button, dialog, answer);
}
