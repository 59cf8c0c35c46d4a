/** The official API v2 `Project` and `App` objects of the simulator's projects and its one app, and the project create body. */
import { z } from 'zod';
import type { ProjectRecord } from '../sim/projects.js';

/** The body of `POST /projects` (`ProjectCreate`). */
export const createProjectV2BodySchema = z.strictObject({ name: z.string().min(1).max(255) });

export interface ProjectResourceV2 {
  object: 'project';
  id: string;
  name: string;
  created_at: number;
  icon_url: null;
  icon_url_large: null;
}

/**
 * Given a project id and its record, returns its `Project` object (no icons in the simulator).
 *
 * @example
 * toProjectResource('proj1', { name: 'Demo', created_at: 0 }).object; // 'project'
 */
export const toProjectResource = (id: string, record: ProjectRecord): ProjectResourceV2 => ({
  object: 'project',
  id,
  name: record.name,
  created_at: record.created_at,
  icon_url: null,
  icon_url_large: null,
});

/** The `App` type of each store the simulator can be set to (a store it does not know is the test store). */
const APP_TYPE_BY_STORE: Record<string, string> = {
  APP_STORE: 'app_store',
  MAC_APP_STORE: 'mac_app_store',
  PLAY_STORE: 'play_store',
  AMAZON: 'amazon',
  STRIPE: 'stripe',
  RC_BILLING: 'rc_billing',
  ROKU: 'roku',
  PADDLE: 'paddle',
  TEST_STORE: 'test_store',
};

export interface AppResource {
  object: 'app';
  id: string;
  name: string;
  created_at: number;
  type: string;
  project_id: string;
}

/**
 * Given the simulator's app id, its store and a project, returns the `App` object: the simulator has
 * one app, shared by every project, of the type of its store (`TEST_STORE` → `test_store`).
 *
 * @example
 * toAppResource('app_sim', 'TEST_STORE', 'proj1').type; // 'test_store'
 */
export const toAppResource = (appId: string, store: string, projectId: string): AppResource => ({
  object: 'app',
  id: appId,
  name: appId,
  created_at: 0,
  type: APP_TYPE_BY_STORE[store] ?? 'test_store',
  project_id: projectId,
});
