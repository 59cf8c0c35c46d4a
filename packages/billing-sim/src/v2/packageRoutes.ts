/** API v2 packages (Project Configuration domain): get, update, delete, its products, attach and detach products. */
import { attachPackageProductsBodySchema, detachPackageProductsBodySchema, updatePackageBodySchema } from './offeringResource.js';
import { findPackage } from '../machine/packages.js';
import { readView } from '../machine/queries.js';
import { errorResponse, paginate, parseBody, respond } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { checkIds, param } from './ids.js';
import { packageProductList, packageView, parseExpand } from './offeringViews.js';

const PACKAGE = '/v2/projects/:project_id/packages/:package_id';

/** The package routes. */
export const packageRoutes: Route[] = [
  {
    method: 'GET', pattern: PACKAGE, domain: 'project_configuration', summary: 'Get a package (expand: product)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const expand = parseExpand(input.query, ['product']);
      if (!expand.ok) return errorResponse(expand.error);
      return respond(findPackage(readView(sim.world()), param(input, 'project_id'), param(input, 'package_id')), 200, (p) => packageView(sim, p, expand.value.has('product')));
    },
  },
  {
    method: 'POST', pattern: PACKAGE, domain: 'project_configuration', summary: "Update a package's display_name or position",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(updatePackageBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'update_package', project_id: param(input, 'project_id'), id: param(input, 'package_id'), update: body.value } as const;
      return respond(sim.dispatch(command), 200, (p) => packageView(sim, p, false));
    },
  },
  {
    method: 'DELETE', pattern: PACKAGE, domain: 'project_configuration', summary: 'Delete a package from its offering',
    handler: (sim, input) => checkIds(sim, input) ?? respond(sim.dispatch({ type: 'delete_package', project_id: param(input, 'project_id'), id: param(input, 'package_id') })),
  },
  {
    method: 'GET', pattern: `${PACKAGE}/products`, domain: 'project_configuration', summary: "List a package's products with their eligibility criteria",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const found = findPackage(readView(sim.world()), param(input, 'project_id'), param(input, 'package_id'));
      if (!found.ok) return errorResponse(found.error);
      return respond(paginate(packageProductList(sim, found.value), (p) => p.product.id, input.query, input.path));
    },
  },
  {
    method: 'POST', pattern: `${PACKAGE}/actions/attach_products`, domain: 'project_configuration',
    summary: 'Attach catalog products with their eligibility criteria (one product per criteria: the simulator has one app)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(attachPackageProductsBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'attach_package_products', project_id: param(input, 'project_id'), id: param(input, 'package_id'), products: body.value.products } as const;
      return respond(sim.dispatch(command), 200, (p) => packageView(sim, p, true));
    },
  },
  {
    method: 'POST', pattern: `${PACKAGE}/actions/detach_products`, domain: 'project_configuration', summary: 'Detach products from a package',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(detachPackageProductsBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'detach_package_products', project_id: param(input, 'project_id'), id: param(input, 'package_id'), product_ids: body.value.product_ids } as const;
      return respond(sim.dispatch(command), 200, (p) => packageView(sim, p, true));
    },
  },
];
