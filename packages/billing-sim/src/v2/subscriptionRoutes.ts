/** API v2 subscriptions: search by store id, per customer (with `environment`), one, its transactions and entitlements, cancel and refund. */
import { toEntitlementResource } from './entitlementResource.js';
import { toSubscriptionResource, type SubscriptionResource } from './subscriptionResource.js';
import { entitlementsForProduct } from '../machine/entitlements.js';
import { subscriptionTransactions } from './transactionResource.js';
import { fail, ok, type Result } from '../machine/apiError.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { customersOf, subscriptionIn } from '../machine/queries.js';
import type { CustomerState, SubscriptionState } from '../machine/world.js';
import { errorResponse, json, paginate, respond, type RouteInput, type SimResponse } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { customerListing } from './customerListing.js';
import { checkIds, param } from './ids.js';

const PROJECT = '/v2/projects/:project_id';
const SUB = `${PROJECT}/subscriptions/:subscription_id`;

const resourceOf = (sim: BillingSimulator, projectId: string, customer: CustomerState, sub: SubscriptionState): SubscriptionResource =>
  toSubscriptionResource(sub, customer, {
    settings: sim.settings,
    products: sim.world().products,
    base: `/v2/projects/${encodeURIComponent(projectId)}`,
    entitlements: entitlementsForProduct(sim.world(), projectId, sub.product_id).map(toEntitlementResource),
  });

/** The subscription of the path, in the path's project, or 404 naming `subscription_id`. */
function findSub(sim: BillingSimulator, input: RouteInput): Result<{ customer: CustomerState; sub: SubscriptionState }> {
  const id = param(input, 'subscription_id');
  const found = subscriptionIn(sim.world(), id);
  if (found === undefined || found.customer.project_id !== param(input, 'project_id')) return fail('resource_missing', `Subscription ${id} not found`, 'subscription_id');
  return ok(found);
}

/** Runs a lifecycle command on the path's subscription and answers the subscription after it. */
function action(run: (sim: BillingSimulator, id: string) => Result<unknown>) {
  return (sim: BillingSimulator, input: RouteInput): SimResponse => {
    const bad = checkIds(sim, input);
    if (bad !== null) return bad;
    const found = findSub(sim, input);
    if (!found.ok) return errorResponse(found.error);
    const done = run(sim, found.value.sub.id);
    if (!done.ok) return errorResponse(done.error);
    const after = findSub(sim, input);
    return respond(after, 200, (v) => resourceOf(sim, param(input, 'project_id'), v.customer, v.sub));
  };
}

/** The subscription routes. */
export const subscriptionRoutes: Route[] = [
  {
    method: 'GET', pattern: `${PROJECT}/subscriptions`, domain: 'customer_information',
    summary: 'Find subscriptions by store_subscription_identifier (any of its transaction ids: the current or the original)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const id = input.query['store_subscription_identifier'];
      if (id === undefined || id === '') return errorResponse(fail('parameter_error', 'store_subscription_identifier is required', 'store_subscription_identifier').error);
      const projectId = param(input, 'project_id');
      const items = customersOf(sim.world(), projectId).flatMap((c) =>
        c.subscriptions.filter((s) => s.transaction_id === id || s.original_transaction_id === id).map((s) => resourceOf(sim, projectId, c, s)),
      );
      return respond(paginate(items, (s) => s.id, input.query, input.path, ['store_subscription_identifier']));
    },
  },
  {
    method: 'GET', pattern: `${PROJECT}/customers/:customer_id/subscriptions`, domain: 'customer_information',
    summary: "List a customer's subscriptions (query environment: sandbox or production)",
    handler(sim, input) {
      const listing = customerListing(sim, input);
      if (!listing.ok) return listing.response;
      const { projectId, customer, env } = listing;
      const items = customer.subscriptions.map((s) => resourceOf(sim, projectId, customer, s)).filter((s) => env === undefined || s.environment === env);
      return respond(paginate(items, (s) => s.id, input.query, input.path, ['environment']));
    },
  },
  {
    method: 'GET', pattern: SUB, domain: 'customer_information', summary: 'Get a subscription',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      return respond(findSub(sim, input), 200, (v) => resourceOf(sim, param(input, 'project_id'), v.customer, v.sub));
    },
  },
  {
    method: 'GET', pattern: `${SUB}/transactions`, domain: 'customer_information', summary: "List a subscription's transactions",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const found = findSub(sim, input);
      if (!found.ok) return errorResponse(found.error);
      return respond(paginate(subscriptionTransactions(found.value.sub), (t) => t.id, input.query, input.path));
    },
  },
  {
    method: 'GET', pattern: `${SUB}/entitlements`, domain: 'customer_information', summary: 'List the entitlements a subscription grants',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const found = findSub(sim, input);
      if (!found.ok) return errorResponse(found.error);
      return json(200, resourceOf(sim, param(input, 'project_id'), found.value.customer, found.value.sub).entitlements);
    },
  },
  {
    method: 'POST', pattern: `${SUB}/transactions/:transaction_id/actions/refund`, domain: 'customer_information',
    summary: "Refund a subscription's transaction: the current period's (as actions/refund); an earlier one is kept but not refundable here (422)",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const found = findSub(sim, input);
      if (!found.ok) return errorResponse(found.error);
      const txId = param(input, 'transaction_id');
      const { sub } = found.value;
      const known = subscriptionTransactions(sub);
      if (!known.some((t) => t.id === txId)) return errorResponse(fail('resource_missing', `Transaction ${txId} not found`, 'transaction_id').error);
      if (txId !== sub.transaction_id) return errorResponse(fail('unprocessable_entity_error', 'Only the current period\'s transaction can be refunded in the simulator', 'transaction_id').error);
      const done = sim.dispatch({ type: 'refund', subscription_id: sub.id });
      if (!done.ok) return errorResponse(done.error);
      const after = findSub(sim, input);
      return respond(after, 200, (v) => subscriptionTransactions(v.sub).find((t) => t.id === txId) ?? subscriptionTransactions(v.sub).at(-1));
    },
  },
  {
    method: 'POST', pattern: `${SUB}/actions/cancel`, domain: 'customer_information',
    summary: 'Cancel: auto-renew off (CANCELLATION now, EXPIRATION at the period end)',
    handler: action((sim, id) => sim.dispatch({ type: 'cancel', subscription_id: id, reason: 'UNSUBSCRIBE' })),
  },
  {
    method: 'POST', pattern: `${SUB}/actions/refund`, domain: 'customer_information',
    summary: 'Refund the current period and revoke access (CANCELLATION CUSTOMER_SUPPORT, EXPIRATION)',
    handler: action((sim, id) => sim.dispatch({ type: 'refund', subscription_id: id })),
  },
];
