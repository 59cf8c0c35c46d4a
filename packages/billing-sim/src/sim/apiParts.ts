/**
 * The parts of the world that only API v2 reads and writes (webhook integrations today; entitlements
 * and customer attributes next), in one field of the world so a new part changes this file only.
 */
import { emptyPMap, type PMap } from './persistentMap.js';
import type { WebhookIntegrationRecord } from './integrations.js';

/** API v2's parts of the world: immutable data, replaced by a transition that changes them. */
export interface ApiParts {
  /** Webhook integrations of every project, by id. */
  readonly integrations: PMap<WebhookIntegrationRecord>;
}

/**
 * The parts of an empty world.
 *
 * @example
 * createWorld(settings, 'seed', 0, []).api; // emptyApiParts()
 */
export const emptyApiParts = (): ApiParts => ({ integrations: emptyPMap() });
