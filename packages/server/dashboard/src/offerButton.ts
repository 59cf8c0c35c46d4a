/**
 * The one-click offer beside a recommendation: a button naming the entitlement and duration; a click
 * asks for confirmation (naming the customer, the entitlement and the duration) in the page, then
 * grants through `POST api/subscribers/{id}/offers/{action}` and shows RevenueCat's answer.
 */
import { fetchJson } from '@tenure/http-edge/page';
import { apiKeys } from './api.js';
import { h, words } from './dom.js';
import type { OfferView } from './types.js';

/** What the grant route answers (200, and 502 beside its error). */
interface GrantAnswer {
  granted?: { entitlement: string; expires_at: number };
  revenuecat?: { status: number | null; body: unknown };
  error?: { message?: string };
}

/** RevenueCat's answer in one line: its status and (shortened) body. */
const answerText = (a: GrantAnswer['revenuecat']): string =>
  a === undefined ? '' : `RevenueCat answered ${a.status ?? 'nothing (unreachable)'}: ${JSON.stringify(a.body).slice(0, 300)}`;

/**
 * Given the customer, an offer and what to do after a grant (reload the view with a message),
 * returns the offer's block: the button, the in-page confirmation and the answer line.
 */
export function offerButton(customerId: string, offer: OfferView, afterGrant: (message: string) => Promise<void>): HTMLElement {
  const label = `Offer ${offer.entitlement} for ${offer.duration}`;
  const button = h('button', { type: 'button', class: 'offer', 'data-offer': offer.action }, label) as HTMLButtonElement;
  const answer = h('p', { role: 'status', class: 'muted small offer-answer' });
  const question = `Grant entitlement ${offer.entitlement} for ${offer.duration} to customer ${customerId}?`;
  const confirm = h('button', { type: 'button', class: 'offer-confirm' }, 'Grant') as HTMLButtonElement;
  const cancel = h('button', { type: 'button', class: 'offer-cancel' }, 'Cancel') as HTMLButtonElement;
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
    answer.textContent = 'Granting…';
    try {
      const path = `api/subscribers/${encodeURIComponent(customerId)}/offers/${encodeURIComponent(offer.action)}`;
      const reply = await fetchJson(apiKeys, path, { method: 'POST', body: { actor: 'dashboard' } });
      const body = (reply.body ?? {}) as GrantAnswer;
      if (reply.ok) {
        await afterGrant(`Granted ${offer.entitlement} for ${offer.duration} (${words(offer.action)}). ${answerText(body.revenuecat)}`);
        return;
      }
      answer.textContent = `Not granted (${reply.status}): ${body.error?.message ?? 'error'}. ${answerText(body.revenuecat)}`;
    } catch (error) {
      answer.textContent = `Not granted: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      dialog.hidden = true;
      confirm.disabled = false;
      button.disabled = false;
    }
  });
  const auto = offer.auto ? h('span', { class: 'tag' }, `auto, ≤ ${offer.daily_cap}/day`) : null;
  return h('div', { class: 'offer-box' }, button, auto, dialog, answer);
}
