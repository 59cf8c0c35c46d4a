/**
 * Control routes for the API v2 world: projects (which exist, create one) and the simulator's full
 * view of a customer (subscriptions, purchases, balances, credit lots), which API v2's `Customer`
 * object does not carry.
 */
import { z } from 'zod';
import { fail } from '../machine/apiError.js';
import { customerView } from '../machine/balanceOps.js';
import { offeringFor } from '../machine/offerings.js';
import { simInvoiceRoute } from '../v2/invoiceRoutes.js';
import { simPortalRoute } from '../v2/portalRoutes.js';
import { placementRoutes } from './placementRoutes.js';
import { projectIds } from '../machine/projects.js';
import { customerIn, readView } from '../machine/queries.js';
import { errorResponse, json, parseBody, respond } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';

/** The body of `POST /sim/projects`. */
export const createProjectBodySchema = z.strictObject({ id: z.string() });

/** The control routes of projects and the customer view. */
export const simApiRoutes: Route[] = [
  {
    method: 'GET', pattern: '/sim/projects', summary: 'List the projects that exist (the default first)',
    handler: (sim, input) =>
      json(200, { object: 'list', items: projectIds(sim.world()).map((id) => ({ object: 'sim.project', id })), next_page: null, url: input.path }),
  },
  {
    method: 'POST', pattern: '/sim/projects', summary: 'Create a project (id 1–20 characters)',
    handler(sim, input) {
      const body = parseBody(createProjectBodySchema, input.body);
      return body.ok ? respond(sim.dispatch({ type: 'create_project', project_id: body.value.id }), 201) : errorResponse(body.error);
    },
  },
  {
    method: 'GET', pattern: '/sim/customers/:customer_id',
    summary: "The simulator's view of a customer: subscriptions, purchases, balances, credit lots, the offering the SDK would show it (query project_id)",
    handler(sim, input) {
      const projectId = input.query['project_id'] ?? sim.settings.default_project_id;
      const id = input.params['customer_id'] ?? '';
      const customer = customerIn(sim.world(), projectId, id);
      return customer === undefined
        ? errorResponse(fail('resource_missing', `Customer ${id} not found`, 'customer_id').error)
        : json(200, { ...customerView(readView(sim.world()), customer), offering_id: offeringFor(sim.world(), projectId, id)?.id ?? null });
    },
  },
  simInvoiceRoute,
  simPortalRoute,
  ...placementRoutes,
];
