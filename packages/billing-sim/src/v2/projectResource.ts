/** The official API v2 `Project`, `App` and `PublicApiKey` objects of the simulator's projects and apps, and the project create body. */
import { z } from 'zod';
import type { ProjectRecord } from '../machine/world.js';
import { publicKeyOf, type SimApp } from './apps.js';

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

export interface AppResource {
  object: 'app';
  id: string;
  name: string;
  created_at: number;
  type: string;
  project_id: string;
}

/**
 * Given one of the simulator's apps (`appsOf`) and a project, returns the `App` object.
 *
 * @example
 * toAppResource(appsOf(settings)[0]!, 'proj1').type; // 'test_store'
 */
export const toAppResource = (app: SimApp, projectId: string): AppResource => ({
  object: 'app',
  id: app.id,
  name: app.id,
  created_at: 0,
  type: app.type,
  project_id: projectId,
});

export interface PublicApiKeyResource {
  object: 'public_api_key';
  id: string;
  key: string;
  app_id: string;
  environment: 'production' | 'sandbox';
  created_at: number;
}

/**
 * Given an app and a project, returns its one public API key (a Test Store key is for the sandbox).
 *
 * @example
 * toPublicApiKeyResource(appsOf(settings)[0]!, 'proj1').key; // 'test_…'
 */
export const toPublicApiKeyResource = (app: SimApp, projectId: string): PublicApiKeyResource => ({
  object: 'public_api_key',
  id: `apikey_${app.id}`,
  key: publicKeyOf(projectId, app),
  app_id: app.id,
  environment: app.store === 'TEST_STORE' ? 'sandbox' : 'production',
  created_at: 0,
});
