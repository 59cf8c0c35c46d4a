/**
 * API v2 projects and apps (Project Configuration domain): the projects that exist in the simulator,
 * creating one with a name, and the simulator's one app in every project.
 */
import { toAppResource, toProjectResource, createProjectV2BodySchema } from '../../api/projectResource.js';
import { fail } from '../../sim/apiError.js';
import type { BillingSimulator } from '../../sim/createSimulator.js';
import { projectIds, projectRecord } from '../../sim/projects.js';
import { errorResponse, json, paginate, parseBody, respond } from '../httpTypes.js';
import type { Route } from '../route.js';
import { checkIds, param } from './ids.js';

const APPS = '/v2/projects/:project_id/apps';

const projectResource = (sim: BillingSimulator, id: string) => toProjectResource(id, projectRecord(sim.world(), id));

/** The project and app routes. */
export const projectRoutes: Route[] = [
  {
    method: 'GET', pattern: '/v2/projects', domain: 'project_configuration', summary: 'List the projects that exist (the default first, then by id)',
    handler: (sim, input) => respond(paginate(projectIds(sim.world()).map((id) => projectResource(sim, id)), (p) => p.id, input.query, input.path)),
  },
  {
    method: 'POST', pattern: '/v2/projects', domain: 'project_configuration', summary: 'Create a project with a name (its id: proj and 8 hex digits)',
    handler(sim, input) {
      const body = parseBody(createProjectV2BodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      return respond(sim.dispatch({ type: 'create_named_project', name: body.value.name }), 200, (p) => projectResource(sim, p.id));
    },
  },
  {
    method: 'GET', pattern: APPS, domain: 'project_configuration', summary: "List the project's apps: the simulator's one app, of its store's type",
    handler: (sim, input) =>
      checkIds(sim, input) ??
      respond(paginate([toAppResource(sim.settings.app_id, sim.settings.store, param(input, 'project_id'))], (a) => a.id, input.query, input.path)),
  },
  {
    method: 'GET', pattern: `${APPS}/:app_id`, domain: 'project_configuration', summary: "Get the simulator's app",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const id = param(input, 'app_id');
      if (id !== sim.settings.app_id) return errorResponse(fail('resource_missing', `App ${id} not found`, 'app_id').error);
      return json(200, toAppResource(id, sim.settings.store, param(input, 'project_id')));
    },
  },
];
