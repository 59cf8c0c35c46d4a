/**
 * API v2 projects and apps (Project Configuration domain): the projects that exist in the simulator,
 * creating one with a name, and the simulator's one app in every project.
 */
import { appsOf, type SimApp } from './apps.js';
import { toAppResource, toProjectResource, toPublicApiKeyResource, createProjectV2BodySchema } from './projectResource.js';
import { fail } from '../machine/apiError.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { projectIds, projectRecord } from '../machine/projects.js';
import { errorResponse, json, paginate, parseBody, respond, type RouteInput, type SimResponse } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
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
    method: 'GET', pattern: APPS, domain: 'project_configuration', summary: "List the project's apps: the simulator's (its store's type), and a Test Store app when that store is another",
    handler: (sim, input) =>
      checkIds(sim, input) ??
      respond(paginate(appsOf(sim.settings).map((app) => toAppResource(app, param(input, 'project_id'))), (a) => a.id, input.query, input.path)),
  },
  {
    method: 'GET', pattern: `${APPS}/:app_id`, domain: 'project_configuration', summary: 'Get an app',
    handler(sim, input) {
      const app = appOf(sim, input);
      return 'status' in app ? app : json(200, toAppResource(app, param(input, 'project_id')));
    },
  },
  {
    method: 'GET', pattern: `${APPS}/:app_id/public_api_keys`, domain: 'project_configuration', summary: "List an app's public API keys (one per app, the same in every run: what the SDKs are configured with)",
    handler(sim, input) {
      const app = appOf(sim, input);
      return 'status' in app ? app : respond(paginate([toPublicApiKeyResource(app, param(input, 'project_id'))], (k) => k.id, input.query, input.path));
    },
  },
];

/** The path's app of the project, or the answer to send (a bad id, an unknown project or app). */
function appOf(sim: BillingSimulator, input: RouteInput): SimApp | SimResponse {
  const bad = checkIds(sim, input);
  if (bad !== null) return bad;
  const id = param(input, 'app_id');
  return appsOf(sim.settings).find((a) => a.id === id) ?? errorResponse(fail('resource_missing', `App ${id} not found`, 'app_id').error);
}
