/**
 * The Revoke button of a granted offer in the dispatch history: a click asks for confirmation in the
 * page (naming the entitlement and the customer), then revokes through
 * `POST api/dispatches/{id}/revoke` and shows RevenueCat's answer.
 */
import { fetchJson } from '@tenure/http-edge/page';
import { apiKeys } from './api.js';
import { confirmedAction } from './confirmedAction.js';
import { h } from './dom.js';
import { answerText, type RevenueCatReply } from './revenueCatAnswer.js';
import type { DispatchRecord } from './types.js';

/**
 * Given a grant's record, the subscriber's id and what to do after the revoke (reload the view with a message), returns
 * the button with its in-page confirmation and answer line.
 */
export function revokeButton(grant: DispatchRecord, customerId: string, afterRevoke: (message: string) => void): HTMLElement {
  const entitlement = grant.target ?? '?';
  const parts = confirmedAction({
    name: 'revoke',
    label: 'Revoke',
    attributes: { 'data-dispatch-id': grant.id },
    question: `Revoke entitlement ${entitlement} granted to customer ${customerId}?`,
    confirmLabel: 'Revoke',
    pending: 'Revoking…',
    answerTag: 'span',
    async run() {
      const reply = await fetchJson(apiKeys, `api/dispatches/${grant.id}/revoke`, { method: 'POST', body: { actor: 'dashboard' } });
      const body = (reply.body ?? {}) as RevenueCatReply;
      return reply.ok
        ? { ok: true, message: `Revoked ${entitlement} from ${customerId}. ${answerText(body.revenuecat)}` }
        : { ok: false, line: `Not revoked (${reply.status}): ${body.error?.message ?? 'error'}. ${answerText(body.revenuecat)}` };
    },
    done: afterRevoke,
    thrown: (message) => `Not revoked: ${message}`,
  });
  return h('div', { class: 'revoke-box' }, ...parts);
}
