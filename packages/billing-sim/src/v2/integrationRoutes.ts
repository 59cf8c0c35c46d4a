/** API v2 webhook integrations of a project: list, create, get, update, delete (Project Configuration domain). */
import { createIntegrationBodySchema, toIntegrationResource, updateIntegrationBodySchema } from './integrationResource.js';
import { findIntegration, webhookIntegrationsOf } from '../machine/integrations.js';
import { readView } from '../machine/queries.js';
import { errorResponse, paginate, parseBody, respond } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { checkIds, param } from './ids.js';

const HOOKS = '/v2/projects/:project_id/integrations/webhooks';
const HOOK = `${HOOKS}/:webhook_integration_id`;

/** The webhook integration routes. */
export const integrationRoutes: Route[] = [
  {
    method: 'GET', pattern: HOOKS, domain: 'project_configuration', summary: 'List webhook integrations',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const items = webhookIntegrationsOf(sim.world(), param(input, 'project_id')).map(toIntegrationResource);
      return respond(paginate(items, (i) => i.id, input.query, input.path));
    },
  },
  {
    method: 'POST', pattern: HOOKS, domain: 'project_configuration',
    summary: 'Create a webhook integration (authorization_header sent verbatim; environment and event_types filter what is sent)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(createIntegrationBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      return respond(sim.dispatch({ type: 'create_integration', project_id: param(input, 'project_id'), input: body.value }), 201, toIntegrationResource);
    },
  },
  {
    method: 'GET', pattern: HOOK, domain: 'project_configuration', summary: 'Get a webhook integration',
    handler: (sim, input) =>
      checkIds(sim, input) ??
      respond(findIntegration(readView(sim.world()), param(input, 'project_id'), param(input, 'webhook_integration_id')), 200, toIntegrationResource),
  },
  {
    method: 'POST', pattern: HOOK, domain: 'project_configuration', summary: 'Update a webhook integration (given fields only)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(updateIntegrationBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'update_integration', project_id: param(input, 'project_id'), id: param(input, 'webhook_integration_id'), input: body.value } as const;
      return respond(sim.dispatch(command), 200, toIntegrationResource);
    },
  },
  {
    method: 'DELETE', pattern: HOOK, domain: 'project_configuration', summary: 'Delete a webhook integration',
    handler: (sim, input) =>
      checkIds(sim, input) ??
      respond(sim.dispatch({ type: 'delete_integration', project_id: param(input, 'project_id'), id: param(input, 'webhook_integration_id') })),
  },
];
