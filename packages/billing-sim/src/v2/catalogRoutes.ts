/** API v2 products and entitlements of a project (Project Configuration domain). */
import { createProductBodySchema } from './productResource.js';
import { createEntitlementBodySchema, entitlementProductsBodySchema, toEntitlementResource, updateEntitlementBodySchema } from './entitlementResource.js';
import { fail } from '../machine/apiError.js';
import { entitlementsOf, findEntitlement } from '../machine/entitlements.js';
import type { Product } from '../machine/world.js';
import { readView } from '../machine/queries.js';
import { errorResponse, json, paginate, parseBody, respond } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { checkIds, param } from './ids.js';
import { entitlementProducts, entitlementView, productView } from './catalogViews.js';
import { parseExpand } from './offeringViews.js';

const PROJECT = '/v2/projects/:project_id';
const ENTITLEMENT = `${PROJECT}/entitlements/:entitlement_id`;

/** The product and entitlement routes. */
export const catalogRoutes: Route[] = [
  {
    method: 'GET', pattern: `${PROJECT}/products`, domain: 'project_configuration', summary: 'List products (the catalog every project shares; query app_id; expand: items.app)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const expand = parseExpand(input.query, ['items.app']);
      if (!expand.ok) return errorResponse(expand.error);
      const withApp = expand.value.has('items.app') ? param(input, 'project_id') : undefined;
      const app = input.query['app_id'];
      const items = app !== undefined && app !== sim.settings.app_id ? [] : [...sim.world().products.values()].map((p) => productView(sim, p, withApp));
      return respond(paginate(items, (p) => p.id, input.query, input.path, ['app_id', 'expand']));
    },
  },
  {
    method: 'POST', pattern: `${PROJECT}/products`, domain: 'project_configuration',
    summary: 'Create a product (subscription with subscription.duration, or consumable); its id is the store identifier',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(createProductBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const b = body.value;
      if (b.type !== 'subscription' && b.type !== 'consumable') {
        return errorResponse(fail('unprocessable_entity_error', 'The simulator sells subscription and consumable products', 'type').error);
      }
      if (b.type === 'subscription' && (b.subscription ?? null) === null) return errorResponse(fail('parameter_error', 'A subscription product needs subscription.duration', 'subscription').error);
      const product: Product = {
        object: 'sim.product', id: b.store_identifier, type: b.type, period: b.type === 'subscription' ? (b.subscription?.duration ?? null) : null,
        trial_period: null, display_name: b.display_name ?? b.title ?? b.store_identifier, price: b.type === 'subscription' ? 9.99 : 4.99, currency: 'USD', entitlement_ids: null,
      };
      return respond(sim.dispatch({ type: 'create_api_product', product }), 201, (p) => productView(sim, p));
    },
  },
  {
    method: 'GET', pattern: `${PROJECT}/products/:product_id`, domain: 'project_configuration', summary: 'Get a product (expand: app)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const expand = parseExpand(input.query, ['app']);
      if (!expand.ok) return errorResponse(expand.error);
      const product = sim.world().products.get(param(input, 'product_id'));
      if (product === undefined) return errorResponse(fail('resource_missing', `Product ${param(input, 'product_id')} not found`, 'product_id').error);
      return json(200, productView(sim, product, expand.value.has('app') ? param(input, 'project_id') : undefined));
    },
  },
  {
    method: 'DELETE', pattern: `${PROJECT}/products/:product_id`, domain: 'project_configuration',
    summary: 'Delete a product nothing was bought with (422 otherwise); it leaves its entitlements and packages',
    handler: (sim, input) => checkIds(sim, input) ?? respond(sim.dispatch({ type: 'delete_api_product', id: param(input, 'product_id') })),
  },
  {
    method: 'GET', pattern: `${PROJECT}/entitlements`, domain: 'project_configuration', summary: 'List entitlements (expand: items.product)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const expand = parseExpand(input.query, ['items.product']);
      if (!expand.ok) return errorResponse(expand.error);
      const items = entitlementsOf(sim.world(), param(input, 'project_id')).map((e) => entitlementView(sim, e, expand.value.has('items.product')));
      return respond(paginate(items, (e) => e.id, input.query, input.path, ['expand']));
    },
  },
  {
    method: 'POST', pattern: `${PROJECT}/entitlements`, domain: 'project_configuration', summary: 'Create an entitlement (lookup_key unique in the project)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(createEntitlementBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'create_entitlement', project_id: param(input, 'project_id'), lookup_key: body.value.lookup_key, display_name: body.value.display_name } as const;
      return respond(sim.dispatch(command), 201, toEntitlementResource);
    },
  },
  {
    method: 'GET', pattern: ENTITLEMENT, domain: 'project_configuration', summary: 'Get an entitlement (expand: product)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const expand = parseExpand(input.query, ['product']);
      if (!expand.ok) return errorResponse(expand.error);
      const found = findEntitlement(readView(sim.world()), param(input, 'project_id'), param(input, 'entitlement_id'));
      return respond(found, 200, (e) => entitlementView(sim, e, expand.value.has('product')));
    },
  },
  {
    method: 'POST', pattern: ENTITLEMENT, domain: 'project_configuration', summary: "Update an entitlement's display_name",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(updateEntitlementBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'update_entitlement', project_id: param(input, 'project_id'), id: param(input, 'entitlement_id'), display_name: body.value.display_name } as const;
      return respond(sim.dispatch(command), 200, toEntitlementResource);
    },
  },
  {
    method: 'DELETE', pattern: ENTITLEMENT, domain: 'project_configuration', summary: 'Delete an entitlement (its products stop naming it; its grants go)',
    handler: (sim, input) => checkIds(sim, input) ?? respond(sim.dispatch({ type: 'delete_entitlement', project_id: param(input, 'project_id'), id: param(input, 'entitlement_id') })),
  },
  {
    method: 'GET', pattern: `${ENTITLEMENT}/products`, domain: 'project_configuration', summary: 'List the products attached to an entitlement',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const found = findEntitlement(readView(sim.world()), param(input, 'project_id'), param(input, 'entitlement_id'));
      if (!found.ok) return errorResponse(found.error);
      return respond(paginate(entitlementProducts(sim, found.value), (p) => p.id, input.query, input.path));
    },
  },
  ...(['attach', 'detach'] as const).map(
    (action): Route => ({
      method: 'POST', pattern: `${ENTITLEMENT}/actions/${action}_products`, domain: 'project_configuration',
      summary: `${action === 'attach' ? 'Attach' : 'Detach'} products (their webhooks then ${action === 'attach' ? 'name' : 'no longer name'} the entitlement)`,
      handler(sim, input) {
        const bad = checkIds(sim, input);
        if (bad !== null) return bad;
        const body = parseBody(entitlementProductsBodySchema, input.body);
        if (!body.ok) return errorResponse(body.error);
        const command = {
          type: 'change_entitlement_products', project_id: param(input, 'project_id'), id: param(input, 'entitlement_id'),
          product_ids: body.value.product_ids, attach: action === 'attach',
        } as const;
        return respond(sim.dispatch(command), 200, toEntitlementResource);
      },
    }),
  ),
];
