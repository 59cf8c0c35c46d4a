/**
 * Webhook integrations of a project, as API v2 defines them: a name, a URL, the Authorization value
 * sent verbatim, and filters (`environment`, `event_types`). They live in the world, so delivery
 * reads them beside the webhook configured with `POST /sim/webhook` or the CLI's flags.
 */
import { hexFrom } from '../internal/random.js';
import { fail, ok, type Result } from './apiError.js';
import type { SimContext } from './context.js';
import { pmapGet, pmapRemove, pmapSet, pmapValues } from './persistentMap.js';
import type { World, WebhookEventType, WebhookIntegrationRecord } from './world.js';

/** What a create takes (the API's `CreateWebhookIntegrationInput`, validated). */
export interface IntegrationInput {
  name: string;
  url: string;
  authorization_header?: string | null | undefined;
  environment?: 'production' | 'sandbox' | null | undefined;
  event_types?: WebhookEventType[] | null | undefined;
  app_id?: string | null | undefined;
}

/** What an update takes: any field of the input (a given null clears a nullable one). */
export type IntegrationUpdate = { [K in keyof IntegrationInput]?: IntegrationInput[K] | undefined };

/**
 * Given a world and a project, returns its webhook integrations in creation order (every project's
 * when `projectId` is null): what delivery sends to besides the configured webhook.
 *
 * @example
 * webhookIntegrationsOf(world, null).map((i) => i.url);
 */
export function webhookIntegrationsOf(world: World, projectId: string | null): WebhookIntegrationRecord[] {
  return pmapValues(world.api.integrations)
    .filter((i) => projectId === null || i.project_id === projectId)
    .sort((a, b) => a.seq - b.seq);
}

const notFound = (id: string) => fail('resource_missing', `Webhook integration ${id} not found`, 'webhook_integration_id');

/** The integration of a project, or 404. */
export function findIntegration(ctx: SimContext, projectId: string, id: string): Result<WebhookIntegrationRecord> {
  const found = pmapGet(ctx.api.integrations, id);
  return found === undefined || found.project_id !== projectId ? notFound(id) : ok(found);
}

/** Creates an integration (id `wh` + 16 hex digits from the world's PRNG). */
export function createIntegration(ctx: SimContext, projectId: string, input: IntegrationInput): Result<WebhookIntegrationRecord> {
  const seq = pmapValues(ctx.api.integrations).reduce((m, i) => Math.max(m, i.seq), 0) + 1;
  const record: WebhookIntegrationRecord = {
    id: `wh${hexFrom(ctx.random, 16)}`,
    project_id: projectId,
    name: input.name,
    url: input.url,
    authorization_header: input.authorization_header ?? null,
    environment: input.environment ?? null,
    event_types: input.event_types ?? null,
    app_id: input.app_id ?? null,
    created_at: ctx.now,
    seq,
  };
  ctx.api = { ...ctx.api, integrations: pmapSet(ctx.api.integrations, record.id, record) };
  return ok(record);
}

/** Updates the given fields (a given null clears a nullable one); 404 when unknown. */
export function updateIntegration(ctx: SimContext, projectId: string, id: string, input: IntegrationUpdate): Result<WebhookIntegrationRecord> {
  const found = findIntegration(ctx, projectId, id);
  if (!found.ok) return found;
  const next: WebhookIntegrationRecord = { ...found.value };
  if (input.name !== undefined) next.name = input.name;
  if (input.url !== undefined) next.url = input.url;
  if (input.authorization_header !== undefined) next.authorization_header = input.authorization_header;
  if (input.environment !== undefined) next.environment = input.environment;
  if (input.event_types !== undefined) next.event_types = input.event_types;
  if (input.app_id !== undefined) next.app_id = input.app_id;
  ctx.api = { ...ctx.api, integrations: pmapSet(ctx.api.integrations, id, next) };
  return ok(next);
}

/** Deletes an integration; 404 when unknown. */
export function deleteIntegration(ctx: SimContext, projectId: string, id: string): Result<{ object: 'webhook_integration'; id: string; deleted_at: number }> {
  const found = findIntegration(ctx, projectId, id);
  if (!found.ok) return found;
  ctx.api = { ...ctx.api, integrations: pmapRemove(ctx.api.integrations, id) };
  return ok({ object: 'webhook_integration', id, deleted_at: ctx.now });
}

/** Where and how delivery sends to one integration (the shape of delivery's `DeliveryTarget`). */
export interface IntegrationTarget {
  id: string;
  url: string;
  /** The integration's `authorization_header`, sent verbatim; null sends none. */
  authorization: string | null;
  environment: 'production' | 'sandbox' | null;
  event_types: readonly string[] | null;
}

/**
 * Given a world and a project (null: every project), returns its integrations as delivery targets,
 * in creation order: what delivery sends an event of that project to, besides the configured webhook.
 *
 * @example
 * integrationTargets(world, 'proj_sim').map((t) => t.url);
 */
export const integrationTargets = (world: World, projectId: string | null): IntegrationTarget[] =>
  webhookIntegrationsOf(world, projectId).map((i) => ({
    id: i.id,
    url: i.url,
    authorization: i.authorization_header,
    environment: i.environment,
    event_types: i.event_types,
  }));
