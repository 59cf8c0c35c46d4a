/**
 * The Web Billing customer portal: API v2's `authenticated_management_url` hands out a single-use URL
 * to manage one `RC_BILLING` subscription ("This URL can only be used once"). The simulator's portal
 * is a /sim URL; its token is in the world until it is used.
 */
import { hexFrom } from '../internal/random.js';
import { fail, ok, type Result } from './apiError.js';
import { findSubscription, type SimContext } from './context.js';
import { pmapGet, pmapRemove, pmapSet } from './persistentMap.js';
import type { PortalToken } from './world.js';

/** The store whose subscriptions have a RevenueCat customer portal. */
const PORTAL_STORE = 'RC_BILLING';

/**
 * Issues a token for a subscription of the project: 404 naming `subscription_id` when the project has
 * no such subscription, 400 naming it when the subscription is not a Web Billing one (the portal is
 * Web Billing's; the operation documents no 422).
 */
export function issuePortalToken(ctx: SimContext, projectId: string, subscriptionId: string): Result<{ token: string } & PortalToken> {
  const found = findSubscription(ctx, subscriptionId);
  if (found === undefined || found.customer.project_id !== projectId) return fail('resource_missing', `Subscription ${subscriptionId} not found`, 'subscription_id');
  if (found.sub.store !== PORTAL_STORE) return fail('parameter_error', 'The customer portal manages Web Billing (RC_BILLING) subscriptions only', 'subscription_id');
  const token = hexFrom(ctx.random, 32);
  const record: PortalToken = { project_id: projectId, customer_id: found.customer.id, subscription_id: subscriptionId, issued_at: ctx.now };
  ctx.api = { ...ctx.api, portal_tokens: pmapSet(ctx.api.portal_tokens, token, record) };
  return ok({ token, ...record });
}

/** Uses a token: its record, which is forgotten (404 naming `token` when unknown or already used). */
export function redeemPortalToken(ctx: SimContext, token: string): Result<PortalToken> {
  const record = pmapGet(ctx.api.portal_tokens, token);
  if (record === undefined) return fail('resource_missing', 'This portal URL is unknown or was already used', 'token');
  ctx.api = { ...ctx.api, portal_tokens: pmapRemove(ctx.api.portal_tokens, token) };
  return ok(record);
}
