/**
 * Control routes of placements (`machine/placements.ts`): which offering each of a project's paywall
 * placements shows, read by the SDKs with the offerings (API v2 has no placements to configure).
 */
import { z } from 'zod';
import { placementsOf } from '../machine/placements.js';
import { errorResponse, json, parseBody, respond } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { checkIds, param } from '../v2/ids.js';

const PLACEMENTS = '/sim/projects/:project_id/placements';

/** The body of `POST /sim/projects/{project_id}/placements`: each placement's offering id, or null for none. */
export const placementsBodySchema = z.strictObject({
  placements: z.record(z.string().min(1).max(255), z.string().min(1).max(255).nullable()),
});

const answer = (projectId: string, placements: Readonly<Record<string, string | null>>) => ({ object: 'sim.placements', project_id: projectId, placements });

/** The placement control routes. */
export const placementRoutes: Route[] = [
  {
    method: 'GET', pattern: PLACEMENTS, summary: "A project's placements: each one's offering id (null: shows none)",
    handler: (sim, input) => checkIds(sim, input) ?? json(200, answer(param(input, 'project_id'), placementsOf(sim.world(), param(input, 'project_id')))),
  },
  {
    method: 'POST', pattern: PLACEMENTS, summary: "Replace a project's placements (404 naming placements.<name> for an offering it lacks; nothing changes)",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(placementsBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const projectId = param(input, 'project_id');
      return respond(sim.dispatch({ type: 'set_placements', project_id: projectId, placements: body.value.placements }), 200, (p) => answer(projectId, p));
    },
  },
];
