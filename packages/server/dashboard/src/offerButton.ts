/**
 * The one-click offer beside a recommendation: a button naming the entitlement and duration; a click
 * asks for confirmation (naming the customer, the entitlement and the duration) in the page, then
 * grants through `POST api/subscribers/{id}/offers/{action}` and shows RevenueCat's answer.
 */
import { fetchJson } from '@tenure/http-edge/page';
import { apiKeys } from './api.js';
import { confirmedAction } from './confirmedAction.js';
import { h, words } from './dom.js';
import { answerText, type RevenueCatReply } from './revenueCatAnswer.js';
import type { OfferView } from './types.js';

/**
 * Given the customer, an offer and what to do after a grant (reload the view with a message),
 * returns the offer's block: the button, the in-page confirmation and the answer line.
 */
export function offerButton(customerId: string, offer: OfferView, afterGrant: (message: string) => Promise<void>): HTMLElement {
  const [button, dialog, answer] = confirmedAction({
    name: 'offer',
    label: `Offer ${offer.entitlement} for ${offer.duration}`,
    attributes: { 'data-offer': offer.action },
    question: `Grant entitlement ${offer.entitlement} for ${offer.duration} to customer ${customerId}?`,
    confirmLabel: 'Grant',
    pending: 'Granting…',
    answerTag: 'p',
    async run() {
      const path = `api/subscribers/${encodeURIComponent(customerId)}/offers/${encodeURIComponent(offer.action)}`;
      const reply = await fetchJson(apiKeys, path, { method: 'POST', body: { actor: 'dashboard' } });
      const body = (reply.body ?? {}) as RevenueCatReply;
      return reply.ok
        ? { ok: true, message: `Granted ${offer.entitlement} for ${offer.duration} (${words(offer.action)}). ${answerText(body.revenuecat)}` }
        : { ok: false, line: `Not granted (${reply.status}): ${body.error?.message ?? 'error'}. ${answerText(body.revenuecat)}` };
    },
    done: afterGrant,
    thrown: (message) => `Not granted: ${message}`,
  });
  const auto = offer.auto ? h('span', { class: 'tag' }, `auto, ≤ ${offer.daily_cap}/day`) : null;
  return h('div', { class: 'offer-box' }, button, auto, dialog, answer);
}
