/**
 * API v2 offerings (Project Configuration domain): list, create, get, update, delete; the packages of
 * an offering (list, create); and assigning an offering to a customer (Customer Information domain).
 */
import { z } from 'zod';
import { createOfferingBodySchema, createPackageBodySchema, updateOfferingBodySchema } from './offeringResource.js';
import { findOffering, offeringsOf } from '../machine/offerings.js';
import { packagesOf } from '../machine/packages.js';
import { readView } from '../machine/queries.js';
import { errorResponse, json, paginate, parseBody, respond } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { checkIds, param } from './ids.js';
import { offeringView, packageView, parseExpand } from './offeringViews.js';

const PROJECT = '/v2/projects/:project_id';
const OFFERING = `${PROJECT}/offerings/:offering_id`;

/** The body of `assign_offering`: an offering id, or null to clear the assignment. */
export const assignOfferingBodySchema = z.strictObject({ offering_id: z.string().min(1).max(255).nullable() });

/** The offering routes. */
export const offeringRoutes: Route[] = [
  {
    method: 'GET', pattern: `${PROJECT}/offerings`, domain: 'project_configuration', summary: 'List offerings in creation order (expand: items.package, items.package.product)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const expand = parseExpand(input.query, ['items.package', 'items.package.product']);
      if (!expand.ok) return errorResponse(expand.error);
      const deep = expand.value.has('items.package.product');
      const items = offeringsOf(sim.world(), param(input, 'project_id')).map((o) => offeringView(sim, o, deep || expand.value.has('items.package'), deep));
      return respond(paginate(items, (o) => o.id, input.query, input.path, ['expand']));
    },
  },
  {
    method: 'POST', pattern: `${PROJECT}/offerings`, domain: 'project_configuration', summary: "Create an offering (the project's first becomes current; lookup_key unique in the project)",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(createOfferingBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      return respond(sim.dispatch({ type: 'create_offering', project_id: param(input, 'project_id'), input: body.value }), 201, (o) => offeringView(sim, o, false, false));
    },
  },
  {
    method: 'GET', pattern: OFFERING, domain: 'project_configuration', summary: 'Get an offering (expand: package, package.product)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const expand = parseExpand(input.query, ['package', 'package.product']);
      if (!expand.ok) return errorResponse(expand.error);
      const deep = expand.value.has('package.product');
      const found = findOffering(readView(sim.world()), param(input, 'project_id'), param(input, 'offering_id'));
      return respond(found, 200, (o) => offeringView(sim, o, deep || expand.value.has('package'), deep));
    },
  },
  {
    method: 'POST', pattern: OFFERING, domain: 'project_configuration', summary: 'Update an offering (display_name, metadata; is_current true makes it current, false leaves none)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(updateOfferingBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'update_offering', project_id: param(input, 'project_id'), id: param(input, 'offering_id'), update: body.value } as const;
      return respond(sim.dispatch(command), 200, (o) => offeringView(sim, o, false, false));
    },
  },
  {
    method: 'DELETE', pattern: OFFERING, domain: 'project_configuration', summary: 'Delete an offering with its packages',
    handler: (sim, input) => checkIds(sim, input) ?? respond(sim.dispatch({ type: 'delete_offering', project_id: param(input, 'project_id'), id: param(input, 'offering_id') })),
  },
  {
    method: 'GET', pattern: `${OFFERING}/packages`, domain: 'project_configuration', summary: "List an offering's packages by position, then creation (expand: items.product)",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const expand = parseExpand(input.query, ['items.product']);
      if (!expand.ok) return errorResponse(expand.error);
      const found = findOffering(readView(sim.world()), param(input, 'project_id'), param(input, 'offering_id'));
      if (!found.ok) return errorResponse(found.error);
      const items = packagesOf(sim.world(), found.value.id).map((p) => packageView(sim, p, expand.value.has('items.product')));
      return respond(paginate(items, (p) => p.id, input.query, input.path, ['expand']));
    },
  },
  {
    method: 'POST', pattern: `${OFFERING}/packages`, domain: 'project_configuration', summary: 'Create a package in an offering (lookup_key unique in the offering)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(createPackageBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'create_package', project_id: param(input, 'project_id'), offering_id: param(input, 'offering_id'), input: body.value } as const;
      return respond(sim.dispatch(command), 201, (p) => packageView(sim, p, false));
    },
  },
  {
    method: 'POST', pattern: `${PROJECT}/customers/:customer_id/actions/assign_offering`, domain: 'customer_information',
    summary: "Assign an offering to a customer, or clear it with null (the SDK would show it instead of the project's current one)",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(assignOfferingBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'assign_offering', project_id: param(input, 'project_id'), customer_id: param(input, 'customer_id'), offering_id: body.value.offering_id } as const;
      const done = sim.dispatch(command);
      // The document describes the 200 without a body: an empty object.
      return done.ok ? json(200, {}) : errorResponse(done.error);
    },
  },
];
