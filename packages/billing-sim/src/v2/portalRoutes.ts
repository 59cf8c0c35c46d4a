/**
 * The Web Billing customer portal: API v2's `authenticated_management_url` (Customer Information
 * domain) hands out a single-use URL on the simulator itself, `/sim/portal/{token}`, which answers
 * whose subscription it manages once, then 404.
 */
import type { Route } from '../http/route.js';
import { json, respond } from '../http/httpTypes.js';
import { checkIds, param } from './ids.js';

/** The portal routes: the API v2 operation and the /sim page it points to. */
export const portalRoutes: Route[] = [
  {
    method: 'GET', pattern: '/v2/projects/:project_id/subscriptions/:subscription_id/authenticated_management_url', domain: 'customer_information',
    summary: 'A single-use customer portal URL for a Web Billing (RC_BILLING) subscription: /sim/portal/{token} on the simulator',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const issued = sim.dispatch({ type: 'issue_portal_token', project_id: param(input, 'project_id'), subscription_id: param(input, 'subscription_id') });
      const host = input.headers['host'] ?? '127.0.0.1';
      return respond(issued, 200, (t) => ({ object: 'authenticated_management_url', management_url: `http://${host}/sim/portal/${t.token}` }));
    },
  },
];

/** The page a portal URL opens: once. */
export const simPortalRoute: Route = {
  method: 'GET', pattern: '/sim/portal/:token', summary: 'The customer portal a management URL opens (single use: then 404)',
  handler: (sim, input) => {
    const used = sim.dispatch({ type: 'redeem_portal_token', token: param(input, 'token') });
    return used.ok ? json(200, { object: 'sim.customer_portal', ...used.value }) : respond(used);
  },
};
