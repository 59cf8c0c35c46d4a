/**
 * Which projects exist in the simulator. The real service answers 404 for a project that does not
 * exist, so the simulator needs the same notion: the default project (`default_project_id`) exists
 * from the start; others are created by `POST /sim/projects` (or the `projects` option and the CLI's
 * `--project`), and a /sim control write naming a project (a purchase, set balances) creates it, as
 * a dashboard would. API v2 never creates a project; it answers an unknown one with 404.
 */
import { hexFrom } from '../internal/random.js';
import { fail, ok, type Result } from './apiError.js';
import { writableCurrencies, type SimContext } from './context.js';
import { pmapGet, pmapSet, pmapValues } from './persistentMap.js';
import type { World, ProjectRecord } from './world.js';

/**
 * Project ids are 1–20 characters (the `project_id` of every response object in the official
 * document); path parameters allow 255, so a longer id is refused as a bad parameter.
 */
export const MAX_PROJECT_ID_LENGTH = 20;

/** A project as the control API shows it. */
export interface ProjectResource {
  object: 'sim.project';
  id: string;
}

/**
 * Given a world and a project id, says whether the project exists.
 *
 * @example
 * projectExists(world, world.settings.default_project_id); // true
 */
export const projectExists = (world: World, projectId: string): boolean =>
  projectId === world.settings.default_project_id || pmapGet(world.projects, projectId) !== undefined;

/**
 * Given a world, returns every project id: the default first, then the others in id order.
 *
 * @example
 * projectIds(world); // ['proj_sim', 'proj1']
 */
export function projectIds(world: World): string[] {
  const others = pmapValues(world.projects).map((p) => p.id).filter((id) => id !== world.settings.default_project_id);
  return [world.settings.default_project_id, ...others.sort()];
}

/**
 * Given a world and a project id, returns its name and creation time: as recorded when it was
 * created, or its id and 0 for a project a /sim write created implicitly.
 *
 * @example
 * projectRecord(world, 'proj1').name; // 'proj1'
 */
export const projectRecord = (world: World, projectId: string): ProjectRecord =>
  pmapGet(world.api.projects, projectId) ?? { name: projectId, created_at: 0 };

/** Checks a project id's shape: 1–20 characters. */
export function checkProjectId(projectId: string): Result<string> {
  if (projectId.length === 0 || projectId.length > MAX_PROJECT_ID_LENGTH) {
    return fail('parameter_error', `project_id must be 1–${MAX_PROJECT_ID_LENGTH} characters`, 'project_id');
  }
  return ok(projectId);
}

/** Creates an empty project: 400 for a bad id, 409 when it exists. */
export function createProject(ctx: SimContext, projectId: string, name: string = projectId): Result<ProjectResource> {
  const checked = checkProjectId(projectId);
  if (!checked.ok) return checked;
  // Jobs run before a command touch only projects that hold customers, so a draft means it exists.
  const exists = projectId === ctx.settings.default_project_id || ctx.projects.has(projectId) || pmapGet(ctx.base.projects, projectId) !== undefined;
  if (exists) return fail('resource_already_exists', `Project ${projectId} already exists`, 'id');
  // Copying the (empty) currency table marks the project written, so the commit keeps it.
  writableCurrencies(ctx, projectId);
  ctx.api = { ...ctx.api, projects: pmapSet(ctx.api.projects, projectId, { name, created_at: ctx.now }) };
  return ok({ object: 'sim.project', id: projectId });
}

/** Creates a project with a name, as API v2's `POST /projects` does: its id is `proj` and 8 hex digits. */
export function createNamedProject(ctx: SimContext, name: string): Result<ProjectResource> {
  return createProject(ctx, `proj${hexFrom(ctx.random, 8)}`, name);
}
