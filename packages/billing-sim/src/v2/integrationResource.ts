/** The official API v2 `WebhookIntegration` object, and the bodies that create and update one. */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookIntegrationRecord } from '../machine/world.js';

const fields = {
  name: z.string().min(1).max(1500),
  url: z.url({ protocol: /^https?$/ }).max(5000),
  authorization_header: z.string().max(5000).nullable(),
  environment: z.enum(['production', 'sandbox']).nullable(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)).nullable(),
  app_id: z.string().min(1).max(255).nullable(),
};

/** `CreateWebhookIntegrationInput`: name and an http(s) URL required. */
export const createIntegrationBodySchema = z.strictObject({
  name: fields.name,
  url: fields.url,
  authorization_header: fields.authorization_header.optional(),
  environment: fields.environment.optional(),
  event_types: fields.event_types.optional(),
  app_id: fields.app_id.optional(),
});

/** `UpdateWebhookIntegrationInput`: every field optional; a given null clears a nullable one. */
export const updateIntegrationBodySchema = createIntegrationBodySchema.partial();

/** A webhook integration as API v2 answers it: never with its Authorization value. */
export interface WebhookIntegrationResource {
  object: 'webhook_integration';
  id: string;
  project_id: string;
  name: string;
  url: string;
  environment: 'production' | 'sandbox' | null;
  event_types: string[] | null;
  app_id: string | null;
  created_at: number;
}

/**
 * Given a stored integration, returns its `WebhookIntegration` object (the document's object has no
 * `authorization_header`: the secret is write-only).
 *
 * @example
 * toIntegrationResource(record).object; // 'webhook_integration'
 */
export function toIntegrationResource(r: WebhookIntegrationRecord): WebhookIntegrationResource {
  return {
    object: 'webhook_integration',
    id: r.id,
    project_id: r.project_id,
    name: r.name,
    url: r.url,
    environment: r.environment,
    event_types: r.event_types === null ? null : [...r.event_types],
    app_id: r.app_id,
    created_at: r.created_at,
  };
}
