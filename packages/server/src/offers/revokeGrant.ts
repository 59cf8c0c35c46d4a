/**
 * Revoking a granted offer through RevenueCat's API v2 (`revoke_granted_entitlement`): a person
 * undoes one grant of the dispatch log (the dashboard's Revoke button on its row,
 * `POST /api/dispatches/{id}/revoke`). The revoke is a record of that grant's delivery (channel
 * `offer_revoke`), so the log says who revoked what, when, and RevenueCat's answer.
 */
import type { DispatchRecord } from '@tenure/core';
import { answerOf, type GrantAnswer } from './grantAnswer.js';
import type { OfferGrantsDeps } from './offerGrants.js';

/** What a revoke did, or why it did not run. */
export type RevokeOutcome =
  | { kind: 'revoked' | 'failed'; grant: DispatchRecord; answer: GrantAnswer; record: DispatchRecord }
  | { kind: 'not_found' | 'not_grant' | 'already_revoked' | 'ended'; message: string };

/** The RevenueCat path of a revoke. */
const revokePath = (project: string, customerId: string) => `/projects/${encodeURIComponent(project)}/customers/${encodeURIComponent(customerId)}/actions/revoke_granted_entitlement`;

/** The grant's end as recorded in its `detail` (`expires_at`), or null when unreadable. */
const expiresAtOf = (grant: DispatchRecord): number | null => {
  try {
    const at = (JSON.parse(grant.detail ?? 'null') as { expires_at?: unknown } | null)?.expires_at;
    return typeof at === 'number' ? at : null;
  } catch {
    return null;
  }
};

/**
 * Given the offers' ports, a dispatch record id and who acts, revokes that grant's entitlement from
 * its customer through RevenueCat, unless the record is no granted offer (`not_grant`), was revoked
 * already (`already_revoked`) or has ended by the service clock (`ended`). Records the revoke, sent or
 * failed, with RevenueCat's answer; the person's cooldown for the offer is kept (see docs).
 *
 * @example
 * const outcome = await revokeGrant(deps, 42, 'dashboard'); // { kind: 'revoked', answer: { status: 200, body }, record }
 */
export async function revokeGrant(deps: Omit<OfferGrantsDeps, 'offers'>, recordId: number, actor: string): Promise<RevokeOutcome> {
  const grant = (await deps.log.list({ limit: 1, before: recordId + 1 })).items[0];
  if (grant === undefined || grant.id !== recordId) return { kind: 'not_found', message: `No dispatch record ${recordId}` };
  if (grant.channel !== 'offer' || grant.outcome !== 'sent' || grant.target === null) {
    return { kind: 'not_grant', message: `Dispatch record ${recordId} is not a granted offer (channel ${grant.channel}, outcome ${grant.outcome})` };
  }
  const delivery = grant.delivery_id ?? grant.id;
  const revoked = (await deps.log.delivery(delivery)).find((r) => r.channel === 'offer_revoke' && r.outcome === 'sent');
  if (revoked !== undefined) return { kind: 'already_revoked', message: `The grant ${recordId} was revoked already (record ${revoked.id}${revoked.actor === null ? '' : `, by ${revoked.actor}`})` };
  const now = deps.clock.now();
  const until = expiresAtOf(grant);
  if (until !== null && until <= now) return { kind: 'ended', message: `The grant ${recordId} ended at ${new Date(until).toISOString()}: nothing to revoke` };
  let answer: GrantAnswer;
  let ok: boolean;
  try {
    const reply = await deps.api.post(revokePath(deps.project, grant.customer_id), { entitlement_id: grant.target });
    answer = { status: reply.status, body: reply.body };
    ok = true;
  } catch (error) {
    answer = answerOf(error);
    ok = false;
  }
  const record = await deps.log.append({
    at: deps.clock.now(),
    customer_id: grant.customer_id,
    action: grant.action,
    urgency: grant.urgency,
    risk_score: grant.risk_score,
    channel: 'offer_revoke',
    outcome: ok ? 'sent' : 'failed',
    attempt: 1,
    error: ok ? null : `RevenueCat ${answer.status === null ? 'unreachable' : `answered ${answer.status}`}`,
    trigger: 'manual',
    delivery_id: delivery,
    target: grant.target,
    detail: JSON.stringify({ entitlement: grant.target, grant_id: grant.id, answer }),
    actor,
  });
  const fields = { customer_id: grant.customer_id, action: grant.action, entitlement: grant.target, grant_id: grant.id, actor, status: answer.status };
  if (ok) deps.logger.info(fields, 'offer revoked');
  else deps.logger.warn(fields, 'offer revoke failed');
  return { kind: ok ? 'revoked' : 'failed', grant, answer, record };
}
