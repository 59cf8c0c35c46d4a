/** API v2 one-time purchases: search by store id, per customer (with `environment`), one, its entitlements, refund. */
import { toEntitlementResource } from './entitlementResource.js';
import { toPurchaseResource, type PurchaseResource } from './purchaseResource.js';
import { fail, ok, type Result } from '../machine/apiError.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { entitlementsForProduct } from '../machine/entitlements.js';
import { pmapGet } from '../machine/persistentMap.js';
import { customerIn } from '../machine/queries.js';
import { errorResponse, paginate, respond, type RouteInput } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { customerListing } from './customerListing.js';
import { checkIds, param } from './ids.js';

const PROJECT = '/v2/projects/:project_id';

/** The `Entitlement`s a product unlocks in a project. */
const entitlementsOf = (sim: BillingSimulator, projectId: string, productId: string) => entitlementsForProduct(sim.world(), projectId, productId).map(toEntitlementResource);

/** The path's purchase as its object, in the path's project, or 404 naming `purchase_id`. */
function findPurchase(sim: BillingSimulator, input: RouteInput): Result<PurchaseResource> {
  const projectId = param(input, 'project_id');
  const id = param(input, 'purchase_id');
  const world = sim.world();
  const owner = pmapGet(world.purchases, id);
  const customer = owner === undefined || owner.project_id !== projectId ? undefined : customerIn(world, projectId, owner.customer_id);
  const purchase = customer?.purchases.find((p) => p.transaction_id === id);
  if (customer === undefined || purchase === undefined) return fail('resource_missing', `Purchase ${id} not found`, 'purchase_id');
  return ok(toPurchaseResource(purchase, customer, world.products, `/v2/projects/${encodeURIComponent(projectId)}`, entitlementsOf(sim, projectId, purchase.product_id)));
}

/** The purchase routes. */
export const purchaseRoutes: Route[] = [
  {
    method: 'GET', pattern: `${PROJECT}/purchases`, domain: 'customer_information', summary: 'Find one-time purchases by store_purchase_identifier',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const id = input.query['store_purchase_identifier'];
      if (id === undefined || id === '') return errorResponse(fail('parameter_error', 'store_purchase_identifier is required', 'store_purchase_identifier').error);
      const found = findPurchase(sim, { ...input, params: { ...input.params, purchase_id: id } });
      return respond(paginate(found.ok ? [found.value] : [], (p) => p.id, input.query, input.path, ['store_purchase_identifier']));
    },
  },
  {
    method: 'GET', pattern: `${PROJECT}/customers/:customer_id/purchases`, domain: 'customer_information',
    summary: "List a customer's one-time purchases (query environment: sandbox or production)",
    handler(sim, input) {
      const listing = customerListing(sim, input);
      if (!listing.ok) return listing.response;
      const { world, projectId, customer, env } = listing;
      const base = `/v2/projects/${encodeURIComponent(projectId)}`;
      const items = customer.purchases
        .map((p) => toPurchaseResource(p, customer, world.products, base, entitlementsOf(sim, projectId, p.product_id)))
        .filter((p) => env === undefined || p.environment === env);
      return respond(paginate(items, (p) => p.id, input.query, input.path, ['environment']));
    },
  },
  {
    method: 'GET', pattern: `${PROJECT}/purchases/:purchase_id`, domain: 'customer_information', summary: 'Get a one-time purchase',
    handler: (sim, input) => checkIds(sim, input) ?? respond(findPurchase(sim, input)),
  },
  {
    method: 'GET', pattern: `${PROJECT}/purchases/:purchase_id/entitlements`, domain: 'customer_information', summary: 'List the entitlements a one-time purchase unlocks (its product attached to them)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const found = findPurchase(sim, input);
      if (!found.ok) return errorResponse(found.error);
      return respond(paginate(found.value.entitlements.items, (e) => e.id, input.query, input.path));
    },
  },
  {
    method: 'POST', pattern: `${PROJECT}/purchases/:purchase_id/actions/refund`, domain: 'customer_information',
    summary: 'Refund a one-time purchase (CANCELLATION webhook, its credits clawed back)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const found = findPurchase(sim, input);
      if (!found.ok) return errorResponse(found.error);
      const done = sim.dispatch({ type: 'refund_purchase', project_id: param(input, 'project_id'), transaction_id: found.value.id });
      if (!done.ok) return errorResponse({ ...done.error, param: done.error.param === 'transaction_id' ? 'purchase_id' : done.error.param });
      return respond(findPurchase(sim, input));
    },
  },
];
