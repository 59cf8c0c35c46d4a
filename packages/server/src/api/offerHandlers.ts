/** Framework-free handler of `POST /api/subscribers/{id}/offers/{action}`: one grant through RevenueCat. */
import { ACTIONS, assessSubscriber, type Action, type Assessment, type Offer } from '@tenure/core';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { apiError, type HandlerResult } from '../http/apiError.js';
import { manualRequest } from '../offers/offerGrants.js';

type Deps = Pick<RetentionRuntime, 'store' | 'clock' | 'config' | 'offers'>;

const isAction = (text: string): text is Action => (ACTIONS as readonly string[]).includes(text);

/**
 * Given an assessment and the configured offers, returns the offers of the subscriber view: every
 * configured offer, with whether its action is recommended now (the dashboard shows each beside its
 * recommendation). Pure.
 *
 * @example
 * offersView(assessment, offers); // [{ action: 'winback', entitlement: 'pro', duration: 'P7D', recommended: true, … }]
 */
export function offersView({ recommendations }: Assessment, offers: readonly Offer[]) {
  return offers.map((o) => ({
    action: o.action,
    entitlement: o.entitlement,
    duration: o.duration,
    auto: o.auto,
    daily_cap: o.daily_cap,
    cooldown: o.cooldown,
    recommended: recommendations.some((r) => r.action === o.action),
  }));
}

/**
 * Given a customer id, an action and who acts, grants the action's offer through RevenueCat:
 * 200 with what was granted and RevenueCat's answer; 400 (field `action`) when no offer is
 * configured for the action; 404 for an unknown customer; 409 within the offer's cooldown for the
 * person; 502 with RevenueCat's answer when it refuses or cannot be reached (recorded as failed).
 *
 * @example
 * await grantOffer(runtime, 'user_1', 'winback', 'api'); // { status: 200, body: { granted: { entitlement: 'pro', expires_at }, revenuecat: { status: 201, body }, dispatch_id } }
 */
export async function grantOffer(deps: Deps, customerId: string, action: string, actor: string): Promise<HandlerResult> {
  const offer = isAction(action) ? deps.offers?.offerOf(action) : undefined;
  if (!isAction(action) || offer === undefined || deps.offers === undefined) {
    const why = isAction(action) ? `no offer is configured for "${action}" (set offers.${action} in the configuration file)` : `"${action}" is not a recommended action`;
    return apiError('invalid_request', why, 'action');
  }
  const subscriber = await deps.store.get(customerId);
  if (subscriber === undefined) return apiError('not_found', `Unknown customer "${customerId}"`, 'customer_id');
  const outcome = await deps.offers.grant(manualRequest(assessSubscriber(subscriber, deps.clock.now(), deps.config), action, actor));
  switch (outcome.kind) {
    case 'granted':
    case 'failed': {
      const body = { granted: outcome.grant, revenuecat: outcome.answer, dispatch_id: outcome.record.id };
      if (outcome.kind === 'granted') return { status: 200, body };
      const refused = outcome.answer.status === null ? 'could not be reached' : `answered ${outcome.answer.status}`;
      return { status: 502, body: { error: { code: 'bad_gateway', message: `RevenueCat ${refused}: nothing was granted` }, ...body } };
    }
    case 'cooldown':
      return apiError('conflict', `"${customerId}" was granted the ${action} offer within its cooldown (${outcome.cooldown})`, 'action');
    case 'cap_reached':
    case 'no_offer':
    case 'error':
      // A manual grant takes no cap slot, the offer was found above, and its errors are thrown (the edge answers 500).
      return apiError('internal_error', `unexpected offer outcome ${outcome.kind}`);
  }
}

/**
 * Given a dispatch record id of a granted offer and who acts, revokes that grant through
 * RevenueCat: 200 with what was revoked and RevenueCat's answer; 404 for an unknown record; 400
 * (field `id`) for a record that is no granted offer; 409 when it was revoked already, has ended,
 * or no offers are configured (no key to call RevenueCat with); 502 with RevenueCat's answer when it
 * refuses or cannot be reached (recorded as failed).
 *
 * @example
 * await revokeOffer(runtime, 42, 'dashboard'); // { status: 200, body: { revoked: { grant_id: 42, entitlement, ... }, revenuecat: { status: 200, body }, dispatch_id: 43 } }
 */
export async function revokeOffer(deps: Pick<Deps, 'offers'>, id: number, actor: string): Promise<HandlerResult> {
  if (deps.offers === undefined) return apiError('conflict', 'No offers are configured, so RevenueCat cannot be called (set offers, REVENUECAT_API_KEY and --revenuecat-project)', 'id');
  const outcome = await deps.offers.revoke(id, actor);
  switch (outcome.kind) {
    case 'revoked':
    case 'failed': {
      const { grant } = outcome;
      const body = {
        revoked: { grant_id: grant.id, customer_id: grant.customer_id, action: grant.action, entitlement: grant.target! },
        revenuecat: outcome.answer,
        dispatch_id: outcome.record.id,
      };
      if (outcome.kind === 'revoked') return { status: 200, body };
      const refused = outcome.answer.status === null ? 'could not be reached' : `answered ${outcome.answer.status}`;
      return { status: 502, body: { error: { code: 'bad_gateway', message: `RevenueCat ${refused}: nothing was revoked` }, ...body } };
    }
    case 'not_found':
      return apiError('not_found', outcome.message, 'id');
    case 'not_grant':
      return apiError('invalid_request', outcome.message, 'id');
    case 'already_revoked':
    case 'ended':
      return apiError('conflict', outcome.message, 'id');
  }
}
